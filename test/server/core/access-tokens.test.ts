import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { createTokenVerifier, issueAccessToken } from '#core/platform/tokens.js';

/** Access tokens checked against a JWKS served over HTTP, and the HS256 secret that `npm run token` signs with. */
let server: Server;
let jwksUrl: string;
const signer = await generateKeyPair('ES256');
const stranger = await generateKeyPair('ES256');

beforeAll(async () => {
  const jwk = { ...(await exportJWK(signer.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const signed = (key: CryptoKey, claims: { iss?: string } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setSubject('user-1')
    .setExpirationTime('5m')
    .sign(key);

describe('access tokens', () => {
  it('accepts a token signed by a key of the JWKS and refuses one signed by another key', async () => {
    const verifier = createTokenVerifier({
      jwtSecret: undefined,
      jwksUrl,
      issuer: 'https://auth.test',
      audience: undefined,
    });
    expect((await verifier.verify(await signed(signer.privateKey, { iss: 'https://auth.test' }))).sub).toBe('user-1');
    await expect(verifier.verify(await signed(stranger.privateKey, { iss: 'https://auth.test' }))).rejects.toThrow();
    await expect(verifier.verify(await signed(signer.privateKey, { iss: 'https://other.test' }))).rejects.toThrow();
  });

  it('verifies the tokens it issues with the shared secret, and no others', async () => {
    const auth = { jwtSecret: 'a-secret-of-at-least-thirty-two-characters', jwksUrl: undefined };
    const settings = { ...auth, issuer: undefined, audience: undefined };
    const token = await issueAccessToken(settings, 'user-2', null);
    const verifier = createTokenVerifier(settings);
    expect((await verifier.verify(token)).sub).toBe('user-2');
    const other = createTokenVerifier({ ...settings, jwtSecret: 'another-secret-of-thirty-two-characters!' });
    await expect(other.verify(token)).rejects.toThrow();
  });
});
