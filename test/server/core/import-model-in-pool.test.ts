import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as validator from 'gltf-validator';
import { createCpuPool, type CpuPool } from '#core/platform/cpu-pool.js';
import { importModelInPool, IMPORT_MODEL_TASK } from '#core/services/model-checks/import-model-in-pool.js';
import { ModelFileError } from '#core/domain/models/model-file-error.js';
import { chairGlb, chairZip, patchGlbJson } from '../../helpers/model-fixtures.js';

/**
 * An import's checks in the CPU pool: unpacked once, validated and converted side by side; a
 * validator refusal wins over everything and stops a conversion still running.
 */
let dir: string;
let pool: CpuPool;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cs-import-pool-'));
  pool = createCpuPool({ threads: 2, warm: [IMPORT_MODEL_TASK] });
});
afterAll(async () => {
  await pool?.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * The chair GLB with a POSITION max the data does not reach: the validator refuses it, glTF-Transform reads it fine.
 */
async function wrongBoundsGlb(): Promise<Uint8Array> {
  return patchGlbJson(await chairGlb(), (json) => {
    const accessors = json.accessors as Array<{ max?: number[] }>;
    const position = accessors.find((a) => Array.isArray(a.max))!;
    position.max = position.max!.map((v) => v + 10);
  });
}

describe('importModelInPool', () => {
  it('checks a gltf zip in the pool and answers with a GLB the validator passes', async () => {
    const file = path.join(dir, 'download.zip');
    await writeFile(file, await chairZip());
    const checked = await importModelInPool(pool, {
      source: { kind: 'archive', path: file },
      copyright: 'Chair by Tester (CC0)',
      maxBytes: 50_000_000,
    });
    const report = await validator.validateBytes(checked.glb, { format: 'glb', writeTimestamp: false });
    expect(report.issues.numErrors).toBe(0);
    expect(checked.info).toMatchObject({ numWarnings: 0 });
    expect(checked.readiness.score).toBeGreaterThan(0);
    expect(Object.keys(checked.timings)).toEqual(expect.arrayContaining(['unpack', 'validate', 'convert']));
  });

  it('refuses a model the validator refuses, though glTF-Transform converts it', async () => {
    const file = path.join(dir, 'download.glb');
    await writeFile(file, await wrongBoundsGlb());
    const outcome = await importModelInPool(pool, {
      source: { kind: 'glb', path: file },
      copyright: 'x',
      maxBytes: 50_000_000,
    }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(ModelFileError);
    expect(outcome).toMatchObject({ code: 'invalid_file' });
  });

  it('lets a validator refusal win whenever it comes, and stops a conversion still running', async () => {
    const refusal = {
      ok: false,
      code: 'invalid_file',
      message: 'The glTF validator found 1 error(s)',
      details: { numErrors: 1 },
    };
    const parts = { format: 'glb', sourceFormat: 'glb', entry: 'model.glb', glb: new Uint8Array(12) };
    /** A pool: validation refuses after `validateAfterMs`, conversion ends after `convertAfterMs` unless cancelled. */
    const fakePool = (validateAfterMs: number, convertAfterMs: number, seen: string[]) =>
      ({
        async run(_task: unknown, input: { step: string }, { signal }: { signal: AbortSignal }) {
          if (input.step === 'unpack') return { ok: true, parts, ms: 1 };
          if (input.step === 'validate')
            return new Promise((resolve) => setTimeout(() => resolve(refusal), validateAfterMs));
          return new Promise((resolve, reject) => {
            const stop = () => (clearTimeout(timer), seen.push('conversion stopped'), reject(signal.reason));
            const timer = setTimeout(() => {
              signal.removeEventListener('abort', stop);
              seen.push('converted');
              resolve({ ok: true, glb: new Uint8Array(16), metrics: null, ms: 1 });
            }, convertAfterMs);
            signal.addEventListener('abort', stop, { once: true });
          });
        },
        close: async () => {},
      }) as unknown as CpuPool;
    const input = { source: { kind: 'glb' as const, path: 'unused' }, copyright: 'x', maxBytes: 50_000_000 };

    // The validator refuses after the conversion finished.
    const late: string[] = [];
    const lateError = await importModelInPool(fakePool(60, 0, late), input).catch((error: unknown) => error);
    expect(lateError).toMatchObject({ code: 'invalid_file' });
    expect(late).toEqual(['converted']);

    // The validator refuses first: the conversion is stopped, and the answer does not wait for it.
    const early: string[] = [];
    const started = Date.now();
    const earlyError = await importModelInPool(fakePool(0, 10_000, early), input).catch((error: unknown) => error);
    expect(earlyError).toMatchObject({ code: 'invalid_file' });
    expect(early).toEqual(['conversion stopped']);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
