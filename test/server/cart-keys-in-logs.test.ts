import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { freePort } from '../helpers/test-env.js';
import { startTsProcess, type ChildProcessHandle } from '../helpers/child-process.js';
import { ownerCaller } from '../helpers/owner-call.js';
import { dataUrl, png } from '../worker/submission-fixtures.js';

/**
 * The cart's signing key never reaches a log or an answer: a server and a BFF, each a process of its own logging
 * everything (trace), run the cart's routes, good and bad, and their output is searched for the key.
 */
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const pem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
/** What would betray the key however it was written: each line of its PEM, its DER, its JWK's `d`. */
const secretParts = [
  ...pem.split('\n').filter((line) => line !== '' && !line.startsWith('-----')),
  key.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
  (key.export({ format: 'jwk' }) as { d: string }).d,
];

let setup: TestServer;
let owner: TestPerson;
let server: ChildProcessHandle;
let bff: ChildProcessHandle;
let bffUrl: string;

async function healthy(url: string, process: ChildProcessHandle) {
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/health`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return;
    if (i > 600) throw new Error(`${url} did not start:\n${process.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  // Owners and projects are set up through a server of this process, over the same database.
  setup = await startTestServer();
  owner = await setup.person('owner@keys-in-logs.test');
  const [port, bffPort] = [await freePort(), await freePort()];
  const api = `http://127.0.0.1:${port}`;
  bffUrl = `http://127.0.0.1:${bffPort}`;
  const env = { ...setup.env.env, LOG_LEVEL: 'trace', TRUST_PROXY: '127.0.0.1' };
  server = startTsProcess('server/main.ts', {
    ...env,
    PORT: String(port),
    PUBLIC_BASE_URL: api,
    CART_SIGNING_KEY: pem,
  });
  bff = startTsProcess('bff/main.ts', { ...env, BFF_PORT: String(bffPort), BFF_UPSTREAM_URL: api });
  await Promise.all([healthy(api, server), healthy(bffUrl, bff)]);
}, 120_000);

afterAll(async () => {
  await bff?.stop();
  await server?.stop();
  await setup?.close();
});

describe('the cart signing key', () => {
  it('appears in no log line and no answer of a run', async () => {
    const ownerCall = ownerCaller(
      () => setup.url,
      () => owner.headers,
    );
    const { project } = await ownerCall('POST', '/projects', {
      name: 'Stool',
      type: 'configurator',
      data: {
        sceneData: {
          optionBlocks: [{ id: 'seat', name: 'Seat', choices: [{ id: 'oak', label: 'Oak', price: 10 }] }],
          projectSettings: { cart: { enabled: true } },
        },
      },
    });
    const { settings } = await ownerCall('PUT', `/projects/${project.id}/share`, { isEnabled: true });
    const create = (body: string) =>
      fetch(`${bffUrl}/share/${project.id}/${settings.shareToken}/configurations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const answers: string[] = [];
    const keep = async (res: Response) => {
      answers.push(JSON.stringify([...res.headers]), await res.text());
      return res;
    };
    const body = JSON.stringify({ options: { seat: 'oak' }, screenshot: dataUrl('image/png', png()) });
    expect((await keep(await create(body))).status).toBe(201);
    expect((await keep(await create(body))).status).toBe(200);
    expect((await keep(await create('{"options": 1}'))).status).toBe(400);
    expect((await keep(await create('not json'))).status).toBe(400);
    const created = JSON.parse(answers[1]);
    await keep(await fetch(`${bffUrl}/configurations/${created.configuration.id}`));
    await keep(await fetch(`${bffUrl}/configurations/${'x'.repeat(43)}`));
    await keep(await fetch(`${bffUrl}/.well-known/jwks.json`));
    await keep(await fetch(`${bffUrl}/share/${project.id}/${settings.shareToken}`));
    // Every answer and request is logged by now: the last one waits for its line.
    await bff.waitForOutput(new RegExp(`/share/${project.id}/\\*\\*\\*"`), 20_000);

    const output = server.output() + bff.output();
    expect(output).toContain('/configurations');
    for (const part of secretParts) {
      expect(output).not.toContain(part);
      for (const answer of answers) expect(answer).not.toContain(part);
    }
  });

  it('a process given a bad key stops with a message naming the setting, never the key', async () => {
    const wrong = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // A private key pasted where the previous public keys go, by mistake.
    const misplaced = pem;
    const run = startTsProcess('server/main.ts', {
      ...setup.env.env,
      LOG_LEVEL: 'trace',
      PORT: String(await freePort()),
      CART_SIGNING_KEY: wrong,
      CART_SIGNING_KEYS_PREVIOUS: misplaced,
    });
    const exit = await run.exited;
    expect(exit.code).toBe(1);
    const output = run.output();
    expect(output).toContain('CART_SIGNING_KEY must be');
    expect(output).toContain('CART_SIGNING_KEYS_PREVIOUS must');
    for (const part of [...secretParts, wrong.split('\n')[1]]) expect(output).not.toContain(part);
  }, 60_000);
});
