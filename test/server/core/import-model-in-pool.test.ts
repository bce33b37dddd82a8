import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as validator from 'gltf-validator';
import { createCpuPool, type CpuPool } from '../../../server/core/platform/cpu-pool.js';
import { createLocalDriver } from '../../../server/core/platform/storage/local-driver.js';
import { importModelInPool, IMPORT_MODEL_TASK } from '../../../server/core/services/model-checks/import-model-in-pool.js';
import { ModelFileError } from '../../../server/core/domain/models/model-file-error.js';
import { chairGlb, chairZip, patchGlbJson } from '../../helpers/model-fixtures.js';

/**
 * An import's checks in the CPU pool: unpacked once, validated and converted side by side, the
 * GLB handed to `whileValidating` (the storage write) while the validator may still run, and a
 * validator refusal that wins over everything and comes back only once that write settled.
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

/** The chair GLB with a POSITION max the data does not reach: the validator refuses it, glTF-Transform reads it fine. */
async function wrongBoundsGlb(): Promise<Uint8Array> {
  return patchGlbJson(await chairGlb(), (json) => {
    const accessors = json.accessors as Array<{ max?: number[] }>;
    const position = accessors.find((a) => Array.isArray(a.max))!;
    position.max = position.max!.map((v) => v + 10);
  });
}

describe('importModelInPool', () => {
  it('checks a gltf zip in the pool and hands the GLB to whileValidating once, before answering', async () => {
    const file = path.join(dir, 'download.zip');
    await writeFile(file, await chairZip());
    const written: Uint8Array[] = [];
    const checked = await importModelInPool(pool, { source: { kind: 'archive', path: file }, copyright: 'Chair by Tester (CC0)', maxBytes: 50_000_000 }, { whileValidating: async (glb) => void written.push(glb) });
    expect(written).toHaveLength(1);
    expect(written[0]).toBe(checked.glb);
    const report = await validator.validateBytes(checked.glb, { format: 'glb', writeTimestamp: false });
    expect(report.issues.numErrors).toBe(0);
    expect(checked.info).toMatchObject({ numWarnings: 0 });
    expect(checked.readiness.score).toBeGreaterThan(0);
    expect(Object.keys(checked.timings)).toEqual(expect.arrayContaining(['unpack', 'validate', 'convert']));
  });

  it('refuses a model the validator refuses even when its GLB was already written, and only after that write settled', async () => {
    const file = path.join(dir, 'download.glb');
    await writeFile(file, await wrongBoundsGlb());
    const storage = createLocalDriver(path.join(dir, 'storage'));
    const events: string[] = [];
    const outcome = await importModelInPool(pool, { source: { kind: 'glb', path: file }, copyright: 'x', maxBytes: 50_000_000 }, {
      whileValidating: async (glb) => {
        events.push('write');
        await storage.put('assets/w/a.glb', glb, { contentType: 'model/gltf-binary' });
        events.push('written');
      },
    }).catch((error: unknown) => error);
    events.push('answered');
    expect(outcome).toBeInstanceOf(ModelFileError);
    expect(outcome).toMatchObject({ code: 'invalid_file' });
    // Whichever finished first, a write that started has ended before the refusal came back.
    if (events.includes('write')) expect(events).toEqual(['write', 'written', 'answered']);
    else expect(events).toEqual(['answered']);
    // What the runner then does on failure (cleanUp): nothing of it is left.
    await storage.delete('assets/w/a.glb');
    expect(await readdir(path.join(dir, 'storage')).catch(() => [])).toEqual([]);
  });

  it('orders a late validator refusal after the write, and starts no write once the validator refused', async () => {
    const refusal = { ok: false, code: 'invalid_file', message: 'The glTF validator found 1 error(s)', details: { numErrors: 1 } };
    const parts = { format: 'glb', sourceFormat: 'glb', entry: 'model.glb', glb: new Uint8Array(12) };
    /** A pool whose validator answers after `validateAfterMs`, the conversion after `convertAfterMs`. */
    const fakePool = (validateAfterMs: number, convertAfterMs: number) =>
      ({
        async run(_task: unknown, input: { step: string }) {
          if (input.step === 'unpack') return { ok: true, parts, ms: 1 };
          if (input.step === 'validate') return new Promise((resolve) => setTimeout(() => resolve(refusal), validateAfterMs));
          return new Promise((resolve) => setTimeout(() => resolve({ ok: true, glb: new Uint8Array(16), metrics: null, ms: 1 }), convertAfterMs));
        },
        close: async () => {},
      }) as unknown as CpuPool;
    const input = { source: { kind: 'glb' as const, path: 'unused' }, copyright: 'x', maxBytes: 50_000_000 };

    const late: string[] = [];
    const lateError = await importModelInPool(fakePool(60, 0), input, {
      whileValidating: async () => {
        late.push('write');
        await new Promise((r) => setTimeout(r, 120));
        late.push('written');
      },
    }).catch((error: unknown) => error);
    late.push('answered');
    expect(lateError).toMatchObject({ code: 'invalid_file' });
    expect(late).toEqual(['write', 'written', 'answered']);

    const early: string[] = [];
    const earlyError = await importModelInPool(fakePool(0, 60), input, { whileValidating: async () => void early.push('write') }).catch((error: unknown) => error);
    expect(earlyError).toMatchObject({ code: 'invalid_file' });
    expect(early).toEqual([]);
  });
});
