import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { projectPrefix, readCacheKey } from '../../bff/services/read-cache-key.js';

const secret = randomBytes(32);
const projectId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const token = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

describe('read cache key', () => {
  it('names a project the way share-change notices do, whatever the case of its id', () => {
    const key = readCacheKey({ projectId: projectId.toUpperCase(), token }, secret)!;
    expect(key).toBe(readCacheKey({ projectId, token }, secret));
    expect(key.startsWith(projectPrefix(projectId))).toBe(true);
  });

  it('takes the embed host from Origin, else Referer, and keeps none and an unusable one apart', () => {
    const origin = readCacheKey({ projectId, token, origin: 'https://shop.example.com' }, secret);
    expect(readCacheKey({ projectId, token, referer: 'https://shop.example.com/product/1' }, secret)).toBe(origin);
    expect(readCacheKey({ projectId, token, origin: 'https://shop.example.com:8443' }, secret)).not.toBe(origin);
    const keys = new Set([
      origin,
      readCacheKey({ projectId, token }, secret),
      readCacheKey({ projectId, token, origin: 'null' }, secret),
    ]);
    expect(keys.size).toBe(3);
  });

  it('keeps passwords apart, and out of the key', () => {
    const right = readCacheKey({ projectId, token, password: 'correct horse' }, secret)!;
    expect(right).not.toBe(readCacheKey({ projectId, token, password: 'battery staple' }, secret));
    expect(right).not.toBe(readCacheKey({ projectId, token }, secret));
    expect(right).not.toContain('correct');
    // Another process, another secret: nothing to compare across processes.
    expect(right).not.toBe(readCacheKey({ projectId, token, password: 'correct horse' }, randomBytes(32)));
  });

  it('is null for ids that cannot name a share', () => {
    expect(readCacheKey({ projectId: 'not-a-uuid', token }, secret)).toBeNull();
    expect(readCacheKey({ projectId, token: 'short' }, secret)).toBeNull();
  });
});
