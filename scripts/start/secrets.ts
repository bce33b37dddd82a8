import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DATA_DIR } from './paths.js';

/**
 * Generated secrets kept in `.data/secrets.json` (mode 600) so tokens, signed URLs and the embedded
 * database survive a restart. A value set in the environment always wins and is never written.
 */
const SECRETS_FILE = path.join(DATA_DIR, 'secrets.json');

export const SECRET_NAMES = [
  'AUTH_JWT_SECRET',
  'PUBLIC_ANON_KEY',
  'FILE_SIGNING_SECRET',
  'TOKEN_ENCRYPTION_KEY',
  'EMBEDDED_POSTGRES_PASSWORD',
  'OPERATOR_SECRET',
  'CART_SIGNING_KEY',
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];
export type Secrets = Record<SecretName, string>;

/** The cart's key is a P-256 private key (PKCS#8 PEM); the rest are random strings. */
function generate(name: SecretName): string {
  if (name === 'CART_SIGNING_KEY')
    return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
  return (name === 'PUBLIC_ANON_KEY' ? 'cs_pk_' : '') + randomBytes(32).toString('base64url');
}

/** Reads the stored secrets and adds the missing ones, saving only when something was added. */
export async function loadOrCreateSecrets(): Promise<Secrets> {
  let stored: Partial<Secrets> = {};
  try {
    stored = JSON.parse(await readFile(SECRETS_FILE, 'utf8')) as Partial<Secrets>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`${SECRETS_FILE} is not readable JSON: ${(error as Error).message}`, { cause: error });
  }
  const secrets = { ...stored } as Secrets;
  let added = false;
  for (const name of SECRET_NAMES) {
    if (typeof secrets[name] !== 'string' || secrets[name].length < 16) {
      secrets[name] = generate(name);
      added = true;
    }
  }
  if (added) {
    await mkdir(DATA_DIR, { recursive: true });
    await writeFile(SECRETS_FILE, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  return secrets;
}
