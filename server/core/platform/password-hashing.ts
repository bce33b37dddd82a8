import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import pLimit from 'p-limit';
import {
  SCRYPT_DEFAULTS,
  SCRYPT_KEY_LENGTH,
  SCRYPT_MAX_MEM,
  SCRYPT_SALT_LENGTH,
  formatPasswordHash,
  parsePasswordHash,
  type ScryptParams,
} from '../domain/passwords.js';

/**
 * Share password hashing (format in server/core/domain/passwords.ts). One hash costs about half
 * a second of CPU, off the event loop (libuv pool); callers must not verify on every request.
 */

/** scrypt runs at once per process, hashing and verifying together: each takes ~128 MiB and ~0.5 s of CPU. */
export const MAX_CONCURRENT_SCRYPT = 2;
// One queue per process: the memory it protects is the process's.
const slots = pLimit(MAX_CONCURRENT_SCRYPT);

/** scrypt runs queued or running in this process, so callers can refuse work a flood would only delay. */
export function passwordHashingBacklog(): number {
  return slots.activeCount + slots.pendingCount;
}

function scrypt(password: string, salt: Buffer, length: number, params: ScryptParams): Promise<Buffer> {
  const options = { N: 2 ** params.ln, r: params.r, p: params.p, maxmem: SCRYPT_MAX_MEM };
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
export async function hashPassword(password: string, params: ScryptParams = SCRYPT_DEFAULTS): Promise<string> {
  const salt = randomBytes(SCRYPT_SALT_LENGTH);
  return formatPasswordHash(params, salt, await scrypt(password, salt, SCRYPT_KEY_LENGTH, params));
}

/** Whether the password matches the stored hash; false for a hash `hashPassword` did not write. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const actual = await scrypt(password, parsed.salt, parsed.expected.length, parsed.params);
  return timingSafeEqual(actual, parsed.expected);
}
