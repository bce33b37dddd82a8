import { afterAll, describe, expect, it } from 'vitest';
import { createCpuPool } from '#core/platform/cpu-pool.js';
import { TimeoutError } from '#core/platform/deadline.js';
import { checkModelFileInPool } from '#core/services/model-checks/check-model-in-pool.js';
import { ModelFileError } from '#core/domain/models/model-file-error.js';
import { renderRequestPdfInPool } from '../../../worker/pdf/render-in-pool.js';
import { chairGlb, chairZip, notAModel } from '../../helpers/model-fixtures.js';
import { pdfText } from '../../helpers/pdf-text.js';

/** The CPU pool with its real tasks: model checks (the API) and request PDFs (the worker). */
const pool = createCpuPool({ threads: 1 });
afterAll(() => pool.close());

describe('cpu pool', () => {
  it('checks a model in a thread, moving the upload there instead of copying it', async () => {
    const zip = await chairZip();
    const upload = new Uint8Array(zip.byteLength);
    upload.set(zip);
    const checked = await checkModelFileInPool(pool, upload, 'chair.zip');
    expect(checked.sourceFormat).toBe('zip');
    expect(new TextDecoder().decode(checked.glb.subarray(0, 4))).toBe('glTF');
    expect(checked.info).toMatchObject({ totalTriangleCount: 24 });
    // Moved: the caller's view is empty now.
    expect(upload.byteLength).toBe(0);
  });

  it('keeps a shared buffer usable (copied, not moved) and reports refusals as ModelFileError', async () => {
    const glb = await chairGlb();
    const shared = Buffer.concat([Buffer.alloc(16), Buffer.from(glb)]).subarray(16);
    expect((await checkModelFileInPool(pool, shared, 'chair.glb')).sourceFormat).toBe('glb');
    expect(shared.byteLength).toBe(glb.byteLength);

    const refusal = await checkModelFileInPool(pool, notAModel(), 'chair.glb').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ModelFileError);
    expect(refusal).toMatchObject({
      code: 'invalid_file',
      statusCode: 422,
      details: { messages: [expect.objectContaining({ code: 'NOT_GLTF' })] },
    });
  });

  it('renders a request PDF, and stops a task past its time limit; the pool keeps working', async () => {
    const input = {
      rows: {
        locale: 'en',
        companyName: 'Lamp',
        projectName: 'Lamp',
        requestId: 'req-pool',
        date: 'November 22, 2026 at 10:30 AM UTC',
        customer: [['Name', 'Grace Hopper']] as Array<[string, string]>,
        options: [],
        price: null,
        visitorSaw: null,
        summary: 'A tall lamp',
      },
      screenshots: [],
    };
    await expect(renderRequestPdfInPool(pool, input, { timeoutMs: 1 })).rejects.toBeInstanceOf(TimeoutError);
    const pdf = await renderRequestPdfInPool(pool, input);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfText(pdf)).toContain('Grace Hopper');
  });
});
