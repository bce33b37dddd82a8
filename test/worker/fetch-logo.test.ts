import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { FETCH_LOGO_DEFAULTS, fetchLogo } from '../../worker/pdf/fetch-logo.js';
import { logoForPdf } from '../../worker/pdf/logo-for-pdf.js';
import { png } from './submission-fixtures.js';

/** The merchant's logo for the PDF: loaded when it comes in time as an image within bounds, else none. */
let server: Server;
let base: string;
const logo = png(120, 40);
/** Requests the hanging route got: answered never, so only the timeout can end them. */
const hanging: Array<() => void> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    switch (req.url) {
      case '/logo.png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(logo);
      case '/moved':
        return res.writeHead(302, { location: '/logo.png' }).end();
      case '/page.html':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      case '/huge.png':
        // Declares nothing: the size is found while reading.
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(Buffer.alloc(3 * 1024 * 1024));
      case '/missing.png':
        return res.writeHead(404).end();
      default:
        // /hang: headers never come.
        hanging.push(() => res.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hanging.forEach((end) => end());
  await new Promise((resolve) => server.close(resolve));
});

const insecure = { allowInsecure: true };

describe('fetchLogo', () => {
  it('loads an image, also behind a redirect', async () => {
    expect(await fetchLogo(`${base}/logo.png`, insecure)).toEqual(logo);
    expect(await fetchLogo(`${base}/moved`, insecure)).toEqual(logo);
    expect(await fetchLogo(`${base}/moved`, { ...insecure, maxRedirects: 0 })).toBeNull();
  });

  it('gives up on a server that does not answer within the time (5 s unless told), without throwing', async () => {
    expect(FETCH_LOGO_DEFAULTS.timeoutMs).toBe(5000);
    const started = hanging.length;
    expect(await fetchLogo(`${base}/hang`, { ...insecure, timeoutMs: 300 })).toBeNull();
    // The request did reach the server: it was the wait that ended.
    expect(hanging.length).toBe(started + 1);
  });

  it('leaves out what is not an image, too large, or missing', async () => {
    expect(await fetchLogo(`${base}/page.html`, insecure)).toBeNull();
    expect(await fetchLogo(`${base}/huge.png`, insecure)).toBeNull();
    expect(await fetchLogo(`${base}/missing.png`, insecure)).toBeNull();
    expect(await fetchLogo('not a url', insecure)).toBeNull();
  });

  it('fetches only https: from public addresses outside development', async () => {
    expect(await fetchLogo(`${base}/logo.png`)).toBeNull();
    const port = (server.address() as AddressInfo).port;
    for (const url of [`https://127.0.0.1:${port}/logo.png`, `https://[::1]:${port}/logo.png`, 'file:///etc/hostname'])
      expect(await fetchLogo(url), url).toBeNull();
  });
});

describe('logoForPdf', () => {
  it('draws raster and vector logos as PNGs within 800 × 400 px, and refuses anything else', async () => {
    const small = await logoForPdf(logo);
    expect(await sharp(small!).metadata()).toMatchObject({ format: 'png', width: 120, height: 40 });
    const wide = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    expect(await sharp((await logoForPdf(wide))!).metadata()).toMatchObject({ width: 800, height: 200 });
    // A small SVG is drawn at the size it is shown at, not its nominal 60 × 20.
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20"><rect width="60" height="20"/></svg>',
    );
    expect(await sharp((await logoForPdf(svg))!).metadata()).toMatchObject({ format: 'png', width: 800 });
    expect(await logoForPdf(Buffer.from('<html>not an image</html>'))).toBeNull();
  });
});
