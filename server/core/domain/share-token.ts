import { randomBytes } from 'node:crypto';

/** A new share token: 32 random bytes, base64url (43 characters). */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}
