import { describe, expect, it } from 'vitest';
import { sharePathSegments } from '../../bff/services/share-ids.js';

const projectId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const token = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

describe('share path segments', () => {
  it('reads a percent-encoded link as the plain one, so both reach the same share', () => {
    const encoded = `/share/${projectId.replace('0f', '%30f')}/${token.replace('AA', '%41%41')}`;
    expect(sharePathSegments(encoded)).toEqual({ projectId, token });
    expect(sharePathSegments(`/share/${projectId}/${token}`)).toEqual({ projectId, token });
  });

  it('names no share for a segment that does not decode, or another path', () => {
    expect(sharePathSegments(`/share/${projectId}/%E0%A4%A`)).toBeNull();
    expect(sharePathSegments(`/share/${projectId}/${token}/submit`)).toBeNull();
    expect(sharePathSegments(`/other/${projectId}/${token}`)).toBeNull();
  });
});
