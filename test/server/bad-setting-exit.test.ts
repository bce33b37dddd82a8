import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_SECRETS } from '../helpers/test-env.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('a process with a bad setting', () => {
  it('stops with exit code 1 and one stderr line naming the setting, without a stack trace', async () => {
    const child = spawn(`${ROOT}node_modules/.bin/tsx`, ['server/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...TEST_SECRETS,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
        LOG_LEVEL: 'silent',
        PORT: '99999',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));

    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toEqual(['config-share server: PORT must be an integer from 1 to 65535 (got "99999")']);
    expect(stderr).not.toContain('    at ');
  });
});
