/**
 * Share passwords' format and bounds: scrypt at OWASP parameters, stored PHC style (`$scrypt$ln=17,r=8,p=1$...`)
 * so the cost can be raised without breaking stored hashes. Hashing runs in platform/password-hashing.ts.
 */

/** scrypt's cost: log2(N), block size, parallelism. */
export interface ScryptParams {
  ln: number;
  r: number;
  p: number;
}

/** Defaults of `hashPassword`: log2(N), block size, parallelism. */
export const SCRYPT_DEFAULTS: Readonly<ScryptParams> = { ln: 17, r: 8, p: 1 };
export const SCRYPT_KEY_LENGTH = 32;
export const SCRYPT_SALT_LENGTH = 16;
/** Node's default maxmem (32 MiB) is below what N=2^17, r=8 needs (128 MiB). */
export const SCRYPT_MAX_MEM = 256 * 1024 * 1024;
const FORMAT = /^\$scrypt\$ln=([0-9]{1,2}),r=([0-9]{1,2}),p=([0-9]{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** The stored string of a hash: its parameters, salt and key. */
export function formatPasswordHash(params: ScryptParams, salt: Buffer, key: Buffer): string {
  const cost = `ln=${params.ln},r=${params.r},p=${params.p}`;
  return `$scrypt$${cost}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A stored hash's parts; null for a string this format did not write or whose cost is out of bounds. */
export function parsePasswordHash(stored: string): { params: ScryptParams; salt: Buffer; expected: Buffer } | null {
  const match = FORMAT.exec(stored);
  if (!match) return null;
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Bounds keep a corrupted row from asking for gigabytes of memory.
  if (ln < 10 || r < 1 || p < 1 || p > 4 || 128 * 2 ** ln * r > SCRYPT_MAX_MEM / 2) return null;
  const expected = Buffer.from(match[5], 'base64url');
  if (expected.length < 16) return null;
  return { params: { ln, r, p }, salt: Buffer.from(match[4], 'base64url'), expected };
}
