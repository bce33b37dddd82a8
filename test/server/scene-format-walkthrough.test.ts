import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';

/** The curl walk-through at the top of docs/scene-format.md, run as written against a real server. */
let server: TestServer;
let owner: TestPerson;
let folder: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.person('walkthrough@example.com');
  folder = await mkdtemp(path.join(tmpdir(), 'cs-walkthrough-'));
  await writeFile(path.join(folder, 'stool.glb'), Buffer.from(await demoStoolGlb()));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
  await server.close();
});

describe('the scene format walk-through', () => {
  it('uploads a model, creates a project with an option block, shares it and reads it publicly', async () => {
    const doc = await readFile(new URL('../../docs/scene-format.md', import.meta.url), 'utf8');
    const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks.length).toBeGreaterThanOrEqual(4);

    const { stdout } = await promisify(execFile)('bash', ['-c', `set -euo pipefail\n${blocks.join('\n')}`], {
      cwd: folder,
      env: { PATH: process.env.PATH, API: server.url, TOKEN: owner.token, ANON_KEY: server.config.publicAnonKey },
      timeout: 60_000,
    });

    const optionBlocks = JSON.parse(stdout);
    expect(optionBlocks).toEqual([
      expect.objectContaining({
        id: 'seat',
        choices: [expect.objectContaining({ id: 'oak' }), expect.objectContaining({ id: 'walnut', price: 40 })],
      }),
    ]);
  });
});
