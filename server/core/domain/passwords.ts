import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import pLimit from 'p-limit';

/**
 * Share passwords, hashed with scrypt at the OWASP parameters (N=2^17, r=8, p=1). The stored
 * string names its parameters, PHC style: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (base64url),
 * so the cost can be raised later without breaking stored hashes. One hash costs about half a
 * second of CPU, off the event loop (libuv pool); callers must not verify on every request.
 */

/** Defaults of {@link hashPassword}: log2(N), block size, parallelism. */
export const SCRYPT_DEFAULTS = { ln: 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Node's default maxmem (32 MiB) is below what N=2^17, r=8 needs (128 MiB). */
const MAX_MEM = 256 * 1024 * 1024;
const FORMAT = /^\$scrypt\$ln=([0-9]{1,2}),r=([0-9]{1,2}),p=([0-9]{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** scrypt runs at once per process, hashing and verifying together: each takes ~128 MiB and ~0.5 s of CPU. */
export const MAX_CONCURRENT_SCRYPT = 2;
// One queue per process: the memory it protects is the process's.
const slots = pLimit(MAX_CONCURRENT_SCRYPT);

/** scrypt runs queued or running in this process, so callers can refuse work a flood would only delay. */
export function passwordHashingBacklog(): number {
  return slots.activeCount + slots.pendingCount;
}

function scrypt(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return slots(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scryptCallback(password.normalize('NFC'), salt, length, options, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}

/** A self-describing scrypt hash of the password. */
export async function hashPassword(
  password: string,
  params: { ln: number; r: number; p: number } = SCRYPT_DEFAULTS,
): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, KEY_LENGTH, {
    N: 2 ** params.ln,
    r: params.r,
    p: params.p,
    maxmem: MAX_MEM,
  });
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether the password matches the stored hash; false for a hash this module did not write. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (!match) return false;
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Bounds keep a corrupted row from asking for gigabytes of memory.
  if (ln < 10 || r < 1 || p < 1 || p > 4 || 128 * 2 ** ln * r > MAX_MEM / 2) return false;
  const salt = Buffer.from(match[4], 'base64url');
  const expected = Buffer.from(match[5], 'base64url');
  if (expected.length < 16) return false;
  const actual = await scrypt(password, salt, expected.length, { N: 2 ** ln, r, p, maxmem: MAX_MEM });
  return timingSafeEqual(actual, expected);
}
