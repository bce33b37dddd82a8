import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { startSmtpCatcher, type SmtpCatcher } from '../helpers/smtp-catcher.js';
import { pdfText } from '../helpers/pdf-text.js';
import type { WorkerApp } from '../../worker/app.js';
import {
  createSharedProject,
  dataUrl,
  jpeg,
  png,
  startTestWorker,
  submit,
  validBody,
  waitFor,
  waitForSteps,
  webp,
} from './submission-fixtures.js';

/**
 * Screenshots through submit and every step: each in the PDF, small enough that the e-mail stays far
 * below SMTP limits; one that cannot be decoded is listed and the rest still go out.
 */
let server: TestServer;
let owner: TestPerson;
let smtp: SmtpCatcher;
let worker: WorkerApp;

beforeAll(async () => {
  smtp = await startSmtpCatcher();
  server = await startTestServer({ SMTP_URL: smtp.url });
  owner = await server.person('owner@pdf-screenshots.test');
  worker = await startTestWorker(server.env.env, { SMTP_URL: smtp.url });
});
afterAll(async () => {
  await worker?.close(5000);
  await server?.close();
  await smtp?.close();
});

const imageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0;

/** Submits the screenshots, waits for every step, and returns the stored PDF and the e-mail. */
async function sendRequest(screenshots: Array<[mime: string, bytes: Buffer]>) {
  const share = await createSharedProject(server, owner, {
    projectSettings: { emailAdminAddress: 'sales@shop.example' },
  });
  const res = await submit(
    server.url,
    share,
    validBody({ screenshots: screenshots.map(([mime, bytes]) => dataUrl(mime, bytes)) }),
  );
  expect(res.status).toBe(200);
  const id = (await res.json()).requestId as string;
  const steps = await waitForSteps(server.deps.db, id, 50_000);
  const { rows } = await server.deps.db.$client.query<{ pdf_key: string }>(
    'select pdf_key from submissions where id = $1',
    [id],
  );
  const pdf = await readFile(path.join(server.env.storageDir, rows[0].pdf_key));
  const mail = await waitFor(
    async () => smtp.messages.find((m) => m.messageId === `<request-${id}@config-share>`),
    'the e-mail',
  );
  return { id, steps, pdf, mail };
}

/**
 * A 4000 × 3000 PNG of about 4.6 MB: a colour gradient with noise in every tenth pixel or so,
 * as big a file as a screenshot of that size may be (5,000,000 bytes).
 */
function largeNoisyPng(seed: number): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed >>> 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      const r = state >>> 16;
      const noise = (r & 255) < 20 ? ((r >> 8) % 9) - 4 : 0;
      const i = (y * width + x) * 3;
      pixels[i] = ((x * 255) / width + noise) & 255;
      pixels[i + 1] = ((y * 255) / height + noise) & 255;
      pixels[i + 2] = (128 + noise) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

describe('screenshots in the request PDF', () => {
  it('embeds a WebP screenshot, like PNG and JPEG, and the e-mail carries the PDF alone', async () => {
    const { id, steps, pdf, mail } = await sendRequest([
      ['image/webp', webp()],
      ['image/png', png(40, 30)],
      ['image/jpeg', jpeg()],
    ]);
    expect(steps.pdf.state).toBe('done');
    const text = await pdfText(pdf);
    for (const caption of ['Screenshot 1', 'Screenshot 2', 'Screenshot 3']) expect(text).toContain(caption);
    expect(text).not.toMatch(/Screenshot \d:/);
    expect(imageCount(pdf)).toBe(3);

    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: `request-${id}.pdf`, contentType: 'application/pdf' });
    expect(mail.attachments[0].content).toEqual(pdf);
  });

  it('keeps five 5 MB screenshots to a PDF far below what an e-mail may carry', { timeout: 90_000 }, async () => {
    const shots = await Promise.all([1, 2, 3, 4, 5].map(largeNoisyPng));
    for (const shot of shots) expect(shot.length).toBeGreaterThan(4_000_000);
    expect(shots.reduce((sum, s) => sum + s.length, 0)).toBeGreaterThan(20_000_000);

    const { steps, pdf, mail } = await sendRequest(shots.map((shot) => ['image/png', shot]));
    expect(steps.pdf.state).toBe('done');
    expect(imageCount(pdf)).toBe(5);
    expect(await pdfText(pdf)).not.toMatch(/Screenshot \d:/);
    expect(pdf.length).toBeLessThan(3_000_000);
    // The whole message, base64 and all.
    expect(mail.attachments).toHaveLength(1);
    expect(mail.raw.length).toBeLessThan(4_000_000);
  });

  it('lists a screenshot that cannot be decoded and still embeds the others', async () => {
    // Headers that pass the submit checks, image data that does not decode.
    const brokenPng = png(40, 30);
    brokenPng.fill(0x55, 37, brokenPng.length - 12);
    const brokenWebp = Buffer.concat([webp().subarray(0, 25), Buffer.alloc(40, 0xaa)]);
    brokenWebp.writeUInt32LE(brokenWebp.length - 8, 4);

    const { steps, pdf, mail } = await sendRequest([
      ['image/png', brokenPng],
      ['image/png', png(40, 30)],
      ['image/webp', brokenWebp],
    ]);
    expect(steps.pdf.state).toBe('done');
    const text = await pdfText(pdf);
    expect(text).toContain('Screenshot 1: the image could not be read.');
    expect(text).toContain('Screenshot 2');
    expect(text).not.toContain('Screenshot 2:');
    expect(text).toContain('Screenshot 3: the image could not be read.');
    expect(imageCount(pdf)).toBe(1);
    expect(mail.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
  });
});
