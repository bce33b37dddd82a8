import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { noticesHeard, startTestBff, type TestBff } from '../helpers/bff-app.js';
import { ownerShares, type Shared } from '../helpers/owner-shares.js';

/**
 * The share link as a page and as oEmbed (docs/share-page.md): a browser navigation gets HTML, anything else JSON,
 * and the cache never hands either the other's answer.
 */
let server: TestServer;
let bff: TestBff;
let shares: ReturnType<typeof ownerShares>;
let upstreamReads = 0;
let nextIp = 1;
const visitor = () => ({ 'x-forwarded-for': `198.51.100.${nextIp++}` });

/** What Chromium sends with a navigation. */
const NAVIGATION = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_SHARE_READ: '100000/5m' });
  shares = ownerShares(server.url, await server.person('owner@share-page.test'));
  server.app.server.on('request', (req) => {
    if (req.url?.startsWith('/share/')) upstreamReads++;
  });
  bff = await startTestBff({ ...server.env.env, BFF_UPSTREAM_URL: server.url });
});
afterAll(async () => {
  await bff?.close();
  await server?.close();
});
beforeEach(() => {
  upstreamReads = 0;
});

async function share(settings: Record<string, unknown> = {}, name?: string): Promise<Shared> {
  const target = await shares.share(settings, name);
  await noticesHeard(bff, server.config.queuePrefix);
  return target;
}

const pagePath = (target: Shared) => `/share/${target.id}/${target.token}`;
const open = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${bff.url}${path}`, { headers: { accept: NAVIGATION, ...visitor(), ...headers } });
const oembed = (query: string) => fetch(`${bff.url}/oembed?${query}`, { headers: visitor() });

/** The `content` of `<meta property|name="...">`, unescaped as a browser would. */
function metaOf(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/[:.]/g, '\\$&')}" content="([^"]*)">`).exec(html);
  return match?.[1]
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('the share link as a page', () => {
  it('answers a browser navigation with a page hosting the element, preview tags and oEmbed discovery', async () => {
    const target = await share({}, 'Lounge chair');
    const res = await open(pagePath(target));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('vary')).toBe('Accept');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('x-robots-tag')).toBeNull();
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp.endsWith('; frame-ancestors *')).toBe(true);
    const html = await res.text();
    expect(html).toContain(`<config-share project-id="${target.id}" token="${target.token}">`);
    expect(html).toContain('<script type="module" src="/element/config-share.js"></script>');
    expect(html).toContain('<title>Lounge chair</title>');
    expect(metaOf(html, 'og:title')).toBe('Lounge chair');
    expect(metaOf(html, 'og:description')).toBe('View Lounge chair in 3D and configure it in your browser.');
    expect(metaOf(html, 'og:url')).toBe(`${bff.url}${pagePath(target)}`);
    expect(metaOf(html, 'og:image')).toBe(`${bff.url}/viewer/preview.png`);
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
    expect(html).not.toContain('noindex');
    const discovery = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/
      .exec(html)![1]
      .replace(/&amp;/g, '&');
    expect(discovery).toBe(`${bff.url}/oembed?url=${encodeURIComponent(`${bff.url}${pagePath(target)}`)}&format=json`);

    // What the tags point at is there.
    const image = await fetch(`${bff.url}/viewer/preview.png`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${bff.url}/viewer/page.css`)).headers.get('content-type')).toMatch(/^text\/css/);
    const discovered = await fetch(discovery);
    expect((await discovered.json()).title).toBe('Lounge chair');
  });

  it("keeps JSON for fetch() and API clients, and the cache never hands one the other's answer", async () => {
    const target = await share();
    for (const [first, second] of [
      [NAVIGATION, '*/*'],
      ['application/json', NAVIGATION],
    ]) {
      for (const accept of [first, second, first, second]) {
        const res = await open(pagePath(target), { accept });
        expect(res.status).toBe(200);
        const isHtml = accept === NAVIGATION;
        expect(res.headers.get('content-type'), accept).toMatch(isHtml ? /^text\/html/ : /^application\/json/);
        expect(res.headers.get('vary')).toMatch(/Accept/);
        if (!isHtml) expect((await res.json()).project.id).toBe(target.id);
      }
    }
    // No Accept at all is an API client.
    const bare = await fetch(`${bff.url}${pagePath(target)}`, { headers: { ...visitor(), accept: '' } });
    expect(bare.headers.get('content-type')).toMatch(/^application\/json/);
    expect(bare.headers.get('vary')).toBe('Origin, X-Share-Password, Accept');
    // The page's read and the JSON reads share one kept answer: the server was asked once.
    expect(upstreamReads).toBe(1);
  });

  it('escapes a hostile project name everywhere it appears', async () => {
    const hostile = `</title><script>alert(1)</script>"><img src=x onerror=alert(2)> & 'q'`;
    const target = await share({}, hostile);
    const html = await (await open(pagePath(target))).text();
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toMatch(/content="[^"]*"><img/);
    expect(html).toContain(
      '<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;' +
        '&lt;img src=x onerror=alert(2)&gt; &amp; &#39;q&#39;</title>',
    );
    expect(metaOf(html, 'og:title')).toBe(hostile);
    // The only script is the element's.
    expect(html.match(/<script/g)).toHaveLength(1);

    const body = await (await oembed(`url=${encodeURIComponent(`${bff.url}${pagePath(target)}`)}`)).json();
    expect(body.title).toBe(hostile);
    expect(body.html).not.toContain('<script');
    expect(body.html).toContain('title="&lt;/title&gt;&lt;script&gt;');
  });

  it("carries the share's frame-ancestors (as the server's public read) on the page and password prompt", async () => {
    const restricted = await share({ domainRestrictions: ['shop.example.com', '*.brand.test', 'localhost:8080'] });
    const res = await open(pagePath(restricted));
    expect(res.status).toBe(200);
    const serverPolicy = (
      await fetch(`${server.url}${pagePath(restricted)}`, {
        headers: { apikey: server.env.env.PUBLIC_ANON_KEY, authorization: `Bearer ${server.env.env.PUBLIC_ANON_KEY}` },
      })
    ).headers.get('content-security-policy');
    expect(serverPolicy).toBe('frame-ancestors shop.example.com:* *.brand.test:* localhost:8080');
    expect(res.headers.get('content-security-policy')!.endsWith(`; ${serverPolicy}`)).toBe(true);

    const locked = await share(
      { requirePassword: true, password: 'open sesame', domainRestrictions: ['shop.example.com'] },
      'Secret sofa',
    );
    const prompt = await open(pagePath(locked));
    expect(prompt.status).toBe(200);
    expect(prompt.headers.get('content-security-policy')!.endsWith('; frame-ancestors shop.example.com:*')).toBe(true);
    const html = await prompt.text();
    expect(html).toContain('<title>Password required</title>');
    // The payload (its name included) stays behind the password.
    expect(html).not.toContain('Secret sofa');
    expect(html).toContain(`<config-share project-id="${locked.id}"`);
    expect(html).toContain('noindex');
  });

  it("lets the page's own element read and submit a share restricted to other hosts (it is not an embed)", async () => {
    const restricted = await share({ domainRestrictions: ['shop.example.com'] });
    const own = await fetch(`${bff.url}${pagePath(restricted)}`, {
      headers: { ...visitor(), referer: `${bff.url}${pagePath(restricted)}` },
    });
    expect(own.status).toBe(200);
    const submit = await fetch(`${bff.url}${pagePath(restricted)}/submit`, {
      method: 'POST',
      headers: { ...visitor(), origin: bff.url, 'content-type': 'application/json' },
      body: JSON.stringify({ formData: {}, selectedOptions: {}, configurationSummary: '', screenshots: [] }),
    });
    expect(submit.status).toBe(200);
    // Another site is still refused.
    expect(
      (
        await fetch(`${bff.url}${pagePath(restricted)}`, {
          headers: { ...visitor(), origin: 'https://elsewhere.example.org' },
        })
      ).status,
    ).toBe(403);
  });

  it('shows the not-available page (404, noindex) for a disabled, rotated, unknown or malformed link', async () => {
    const disabled = await share();
    const rotated = await share();
    const oldToken = rotated.token;
    expect((await open(pagePath(disabled))).status).toBe(200);
    await shares.put(disabled.id, { isEnabled: false });
    await shares.call('POST', `/projects/${rotated.id}/share/regenerate`);
    await noticesHeard(bff, server.config.queuePrefix);
    const paths = [
      pagePath(disabled),
      `/share/${rotated.id}/${oldToken}`,
      `/share/00000000-0000-4000-8000-000000000000/${'a'.repeat(43)}`,
      '/share/not-a-uuid/%3Cscript%3E',
    ];
    for (const path of paths) {
      const res = await open(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(res.headers.get('content-security-policy')!.endsWith('; frame-ancestors *')).toBe(true);
      const html = await res.text();
      expect(html).toContain('<title>Not available</title>');
      expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(html).not.toContain('og:image');
      expect(html).not.toContain('application/json+oembed');
      expect(html).not.toContain('<script>');
    }
    // A malformed id never reaches the page.
    const malformed = await (await open('/share/not-a-uuid/%3Cscript%3E')).text();
    expect(malformed).not.toContain('config-share project-id');
    expect(malformed).not.toContain('not-a-uuid');
  });
});

describe('oEmbed', () => {
  it('answers a rich iframe embed of the share page, shrunk to maxwidth/maxheight', async () => {
    const target = await share({}, 'Desk lamp');
    const shareUrl = `https://app.example.com${pagePath(target)}`;
    const res = await oembed(`url=${encodeURIComponent(shareUrl)}&format=json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body).toEqual({
      type: 'rich',
      version: '1.0',
      title: 'Desk lamp',
      provider_name: 'config-share',
      provider_url: `${bff.url}/`,
      html:
        `<iframe src="${bff.url}${pagePath(target)}" width="800" height="600" title="Desk lamp" ` +
        'style="border:0;max-width:100%" loading="lazy" allow="fullscreen; xr-spatial-tracking" ' +
        'allowfullscreen></iframe>',
      width: 800,
      height: 600,
      thumbnail_url: `${bff.url}/viewer/preview.png`,
      thumbnail_width: 1200,
      thumbnail_height: 630,
    });

    const small = await (await oembed(`url=${encodeURIComponent(shareUrl)}&maxwidth=400&maxheight=500`)).json();
    expect([small.width, small.height]).toEqual([400, 300]);
    expect(small.html).toContain('width="400" height="300"');
    // A thumbnail must respect the bounds too: the 1200 x 630 card is left out.
    expect(small.thumbnail_url).toBeUndefined();
    const short = await (await oembed(`url=${encodeURIComponent(shareUrl)}&maxheight=150`)).json();
    expect([short.width, short.height]).toEqual([200, 150]);
  });

  it('answers 404 for unknown, disabled, non-share links, 401 password, 501 xml, 400 bad parameters', async () => {
    const disabled = await share();
    await shares.put(disabled.id, { isEnabled: false });
    const locked = await share({ requirePassword: true, password: 'pw' });
    await noticesHeard(bff, server.config.queuePrefix);
    const live = await share();
    const urlOf = (target: Shared) => encodeURIComponent(`${bff.url}${pagePath(target)}`);

    for (const url of [
      urlOf(disabled),
      encodeURIComponent(`${bff.url}/share/00000000-0000-4000-8000-000000000000/${'b'.repeat(43)}`),
      encodeURIComponent('https://elsewhere.example.org/products/1'),
      encodeURIComponent(`javascript:alert(1)//${pagePath(live)}`),
      'not%20a%20url',
    ]) {
      const res = await oembed(`url=${url}&format=json`);
      expect(res.status, decodeURIComponent(url)).toBe(404);
      expect((await res.json()).success).toBe(false);
    }
    const privateShare = await oembed(`url=${urlOf(locked)}`);
    expect(privateShare.status).toBe(401);
    expect((await privateShare.json()).error).toBe('password_required');

    const xml = await oembed(`url=${urlOf(live)}&format=xml`);
    expect(xml.status).toBe(501);
    expect((await xml.json()).error).toBe('not_implemented');

    for (const query of [
      'format=json',
      `url=${urlOf(live)}&maxwidth=0`,
      `url=${urlOf(live)}&maxwidth=wide`,
      `url=${urlOf(live)}&maxheight=100000`,
      `url=${'x'.repeat(3000)}`,
    ]) {
      const res = await oembed(query);
      expect(res.status, query.slice(0, 60)).toBe(400);
      expect((await res.json()).error).toBe('invalid_request');
    }
  });
});
