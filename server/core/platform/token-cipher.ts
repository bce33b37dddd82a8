import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM at rest for third-party tokens, keyed by SHA-256 of TOKEN_ENCRYPTION_KEY so any long random string
 * works. Stored as `v1.<iv>.<ciphertext>.<tag>` (base64url); a wrong key or tampering fails to decrypt.
 */
export interface TokenCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

const VERSION = 'v1';

export function createTokenCipher(secret: string): TokenCipher {
  const key = createHash('sha256').update(`config-share token encryption\0${secret}`).digest();
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        VERSION,
        iv.toString('base64url'),
        data.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
      ].join('.');
    },
    decrypt(sealed) {
      const [version, iv, data, tag] = sealed.split('.');
      if (version !== VERSION || !iv || data === undefined || !tag) throw new Error('token-cipher: not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
