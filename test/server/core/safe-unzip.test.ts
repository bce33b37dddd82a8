import { describe, expect, it } from 'vitest';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { safeUnzip } from '#core/domain/models/safe-unzip.js';
import { ModelFileError } from '#core/domain/models/model-file-error.js';
import { lyingZipBomb, zipBomb } from '../../helpers/model-fixtures.js';

const zip = (entries: Zippable) => Buffer.from(zipSync(entries));

async function refusal(buffer: Buffer, options?: Parameters<typeof safeUnzip>[1]): Promise<ModelFileError> {
  try {
    await safeUnzip(buffer, options);
  } catch (error) {
    if (error instanceof ModelFileError) return error;
    throw error;
  }
  throw new Error('the archive was accepted');
}

const issueCode = (error: ModelFileError) => (error.details as { messages: Array<{ code: string }> }).messages[0].code;

/** Sets "encrypted" (general purpose bit 0) on every entry, in the local headers and the central directory. */
function markEncrypted(buffer: Buffer): Buffer {
  const out = Buffer.from(buffer);
  const eocd = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let offset = out.readUInt32LE(eocd + 16);
  for (let i = 0; i < out.readUInt16LE(eocd + 10); i++) {
    out.writeUInt16LE(out.readUInt16LE(offset + 8) | 1, offset + 8);
    const local = out.readUInt32LE(offset + 42);
    out.writeUInt16LE(out.readUInt16LE(local + 6) | 1, local + 6);
    offset += 46 + out.readUInt16LE(offset + 28) + out.readUInt16LE(offset + 30) + out.readUInt16LE(offset + 32);
  }
  return out;
}

describe('safeUnzip', () => {
  it('reads entries into memory by normalised path, skipping folders and macOS junk', async () => {
    const files = await safeUnzip(
      zip({
        'a/scene.gltf': strToU8('{}'),
        'a/textures/x.png': new Uint8Array([1, 2, 3]),
        '__MACOSX/a/._scene.gltf': new Uint8Array(1),
        'a/.hidden': new Uint8Array(1),
      }),
    );
    expect([...files.keys()].sort()).toEqual(['a/scene.gltf', 'a/textures/x.png']);
    const png = files.get('a/textures/x.png')!;
    expect([...png]).toEqual([1, 2, 3]);
    // Each entry owns its ArrayBuffer: byte-level consumers (the validator) ignore view offsets.
    expect(png.byteOffset).toBe(0);
    expect(png.buffer.byteLength).toBe(3);
  });

  it('refuses entries that leave the archive', async () => {
    expect(issueCode(await refusal(zip({ '../x.gltf': strToU8('{}') })))).toBe('ZIP_PATH_ESCAPE');
    expect(issueCode(await refusal(zip({ 'a/../../x.gltf': strToU8('{}') })))).toBe('ZIP_PATH_ESCAPE');
    expect(issueCode(await refusal(zip({ '/etc/x.gltf': strToU8('{}') })))).toBe('ZIP_PATH_ESCAPE');
    expect(issueCode(await refusal(zip({ '..\\x.gltf': strToU8('{}') })))).toBe('ZIP_PATH_ESCAPE');
  });

  it('refuses nested archives, encrypted entries and bytes that are not a zip', async () => {
    expect(issueCode(await refusal(zip({ 'inner.zip': new Uint8Array(10) })))).toBe('ZIP_NESTED_ARCHIVE');
    expect(issueCode(await refusal(markEncrypted(zip({ 'scene.gltf': strToU8('{}') }))))).toBe('ZIP_ENCRYPTED');
    expect(issueCode(await refusal(Buffer.from('PK\u0003\u0004 but not really a zip')))).toBe('ZIP_UNREADABLE');
  });

  it('stops an entry whose size fields lie after the declared bytes', async () => {
    const error = await refusal(Buffer.from(await lyingZipBomb(20, 1000)));
    expect(error.code).toBe('invalid_file');
    expect(issueCode(error)).toBe('ZIP_CORRUPT');
    expect(error.message).toMatch(/too many bytes/);
  });

  it('refuses archives past the limits with too_large: entries, entry size, total size, ratio', async () => {
    const three = zip({ 'a.bin': new Uint8Array(10), 'b.bin': new Uint8Array(10), 'c.bin': new Uint8Array(10) });
    expect((await refusal(three, { maxEntries: 2 })).code).toBe('too_large');
    expect((await refusal(Buffer.from(await zipBomb(60)))).code).toBe('too_large');
    expect((await refusal(three, { maxEntryBytes: 9 })).code).toBe('too_large');
    expect((await refusal(three, { maxTotalBytes: 25 })).code).toBe('too_large');
    const ratio = await refusal(Buffer.from(await zipBomb(10)));
    expect(ratio.code).toBe('too_large');
    expect(ratio.message).toMatch(/compressed size/);
    // The same archive is fine under limits that allow it.
    const files = await safeUnzip(Buffer.from(await zipBomb(10)), { maxRatio: 100_000 });
    expect(files.get('scene.bin')!.byteLength).toBe(10 * 1024 * 1024);
  });
});
