import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestPerson } from '../helpers/test-server.js';
import { startFixtureLibraries, type FixtureLibraries } from '../../scripts/start/fixture-libraries/server.js';

/**
 * GET /external-assets/search, /items and /providers against the fixture libraries: fan-out, interleaving, cursors
 * bound to the filters, licence and category rules, the per-person rate limit, and no download URL in any answer.
 */
let libs: FixtureLibraries;
let server: TestServer;
let owner: TestPerson;

beforeAll(async () => {
  libs = await startFixtureLibraries();
  server = await startTestServer({ ...libs.env, LIBRARY_TIMEOUT_MS: '1500', RATE_LIMIT_SEARCH: '1000/1m' });
  owner = await server.person('searcher@example.com');
});
afterAll(async () => {
  await server?.close();
  await libs?.close();
});

const search = async (query: Record<string, string>, person = owner) => {
  const response = await fetch(`${server.url}/external-assets/search?${new URLSearchParams(query)}`, {
    headers: person.headers,
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
};
const statusOf = (body: any, provider: string) => body.providers.find((p: any) => p.provider === provider);

describe('search', () => {
  it('asks every library at once, interleaves them round-robin and reports each', async () => {
    const { status, body } = await search({ q: 'chair' });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.providers.map((p: any) => p.provider)).toEqual(['library_a', 'library_b', 'library_c']);
    for (const p of body.providers) expect(['ok', 'exhausted']).toContain(p.status);
    const order = body.items.map((i: any) => i.provider);
    expect(order.slice(0, 3)).toEqual(['library_a', 'library_b', 'library_c']);
    const chair = body.items.find((i: any) => i.providerAssetId === 'wooden_chair_01');
    expect(chair).toMatchObject({
      provider: 'library_a',
      name: 'Wooden Chair 01',
      licenseId: 'cc0',
      licenseTier: 'allowed',
      commercialUseAllowed: true,
      attributionRequired: false,
      importable: true,
      availableFormats: ['gltf'],
      categories: ['furniture'],
    });
    expect(chair.polygonCount).toBeUndefined();
    const armchair = body.items.find((i: any) => i.name === 'Vintage Armchair');
    expect(armchair).toMatchObject({
      provider: 'library_b',
      licenseId: 'by',
      licenseTier: 'conditions',
      attributionRequired: true,
      polygonCount: 12800,
      author: 'Atelier3d',
    });
    // No answer ever carries a download URL.
    expect(JSON.stringify(body)).not.toMatch(/\/dl\//);
  });

  it('hides models without a clear commercial right by default; shows them, blocked, with commercial=0', async () => {
    const hidden = await search({ q: 'car', providers: 'library_b' });
    expect(hidden.body.items).toEqual([]);
    expect(statusOf(hidden.body, 'library_b').notices.join(' ')).toMatch(/commercial/);
    const shown = await search({ q: '', providers: 'library_b', commercial: '0', pageSize: '48' });
    const byName = Object.fromEntries(shown.body.items.map((i: any) => [i.name, i]));
    expect(byName['Sports Car GT']).toMatchObject({
      licenseId: 'by-nc',
      licenseTier: 'blocked',
      commercialUseAllowed: false,
      importable: false,
    });
    expect(byName['Sports Car GT'].notImportableReason).toMatch(/commercial/i);
    expect(byName['Executive Office Desk']).toMatchObject({
      licenseId: 'st',
      licenseTier: 'blocked',
      importable: false,
    });
    expect(byName['Famous Landmark Statue']).toMatchObject({
      licenseId: 'ed',
      licenseTier: 'blocked',
      importable: false,
    });
    expect(byName['Oak Bookshelf']).toMatchObject({ licenseId: 'by-sa', licenseTier: 'conditions' });
  });

  it('maps categories and licences per library, skipping what a library cannot filter', async () => {
    const { body } = await search({ category: 'furniture', maxPolygons: '10000' });
    expect(statusOf(body, 'library_a')).toMatchObject({ status: 'skipped', count: 0 });
    expect(statusOf(body, 'library_a').message).toMatch(/polygon/);
    expect(statusOf(body, 'library_c')).toMatchObject({ status: 'skipped' });
    for (const item of body.items) expect(item.polygonCount).toBeLessThanOrEqual(10000);
    expect(body.items.every((i: any) => i.provider === 'library_b')).toBe(true);

    const history = await search({ category: 'history' });
    expect(statusOf(history.body, 'library_a')).toMatchObject({ status: 'skipped' });
    expect(history.body.items.filter((i: any) => i.provider === 'library_c').map((i: any) => i.name)).toEqual([
      'Windsor Chair',
    ]);

    const by = await search({ license: 'by', providers: 'library_a,library_b' });
    expect(by.body.items.length).toBeGreaterThan(0);
    expect(by.body.items.every((i: any) => i.licenseId === 'by')).toBe(true);
    expect(statusOf(by.body, 'library_a').count).toBe(0);

    const glb = await search({ format: 'glb' });
    expect(statusOf(glb.body, 'library_a').status).toBe('skipped');
  });

  it('reads the museum library: 3D records only, licence from the media item, ids with colons', async () => {
    const { body } = await search({ q: '', providers: 'library_c', commercial: '0' });
    const names = body.items.map((i: any) => i.name);
    expect(names).toContain('1903 Wright Flyer');
    expect(names).not.toContain('Telegraph Key (photographs only)');
    const mask = body.items.find((i: any) => i.name === 'Carved Mask');
    expect(mask).toMatchObject({ licenseId: 'unknown', licenseTier: 'blocked', importable: false });
    const flyer = body.items.find((i: any) => i.name === '1903 Wright Flyer');
    expect(flyer).toMatchObject({
      providerAssetId: 'edanmdm:nasm_A19610048000',
      author: 'Wilbur Wright',
      availableFormats: ['glb'],
    });
  });

  it('pages with an opaque cursor bound to the filters', async () => {
    const first = await search({ q: '', providers: 'library_a,library_b', pageSize: '3' });
    expect(first.body.items).toHaveLength(6);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await search({
      q: '',
      providers: 'library_a,library_b',
      pageSize: '3',
      cursor: first.body.nextCursor,
    });
    expect(second.status).toBe(200);
    const ids = (b: any) => b.items.map((i: any) => i.providerAssetId);
    expect(ids(second.body).some((id: string) => ids(first.body).includes(id))).toBe(false);
    const other = await search({
      q: 'chair',
      providers: 'library_a,library_b',
      pageSize: '3',
      cursor: first.body.nextCursor,
    });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_request');
    const forged = await search({ q: '', cursor: 'bm90LWEtY3Vyc29y' });
    expect(forged.status).toBe(400);
    // Walking to the end: every library exhausted, no cursor.
    let cursor = second.body.nextCursor;
    let last = second.body;
    for (let i = 0; cursor && i < 20; i++) {
      last = (await search({ q: '', providers: 'library_a,library_b', pageSize: '3', cursor })).body;
      cursor = last.nextCursor;
    }
    expect(cursor).toBeNull();
    expect(last.providers.every((p: any) => p.status === 'exhausted')).toBe(true);
  });

  it('refuses bad parameters with 400 naming the field', async () => {
    for (const query of <Array<Record<string, string>>>[
      { category: 'spaceships' },
      { license: 'gpl' },
      { pageSize: '49' },
      { providers: 'library_z' },
      { commercial: 'yes' },
      { format: 'obj' },
      { maxPolygons: '-1' },
    ]) {
      const { status, body } = await search(query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body.error).toBe('invalid_request');
      expect(body.details[0].field).toMatch(/^querystring\./);
    }
  });

  it('reports a failing library and a too slow one as errors while the others answer', async () => {
    libs.behaviour.library_c.failStatus = 500;
    libs.behaviour.library_a.delayMs = 3000;
    try {
      const started = Date.now();
      const { status, body } = await search({ q: 'bench' });
      expect(status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2900);
      expect(statusOf(body, 'library_a')).toMatchObject({ status: 'error', count: 0 });
      expect(statusOf(body, 'library_a').message).toMatch(/did not answer/);
      expect(statusOf(body, 'library_c')).toMatchObject({ status: 'error' });
      expect(statusOf(body, 'library_b').status).toMatch(/ok|exhausted/);
      expect(body.items.length).toBeGreaterThan(0);
    } finally {
      libs.behaviour.library_c.failStatus = undefined;
      libs.behaviour.library_a.delayMs = undefined;
    }
  });

  it('keeps library answers briefly in Redis', async () => {
    const before = libs.hits.library_b;
    await search({ q: 'oak bookshelf', providers: 'library_b' });
    await search({ q: 'oak bookshelf', providers: 'library_b' });
    expect(libs.hits.library_b - before).toBe(1);
  });

  it('takes session tokens only', async () => {
    const response = await fetch(`${server.url}/external-assets/search?q=chair`, {
      headers: { ...owner.headers, 'x-api-key': 'csk_whatever' },
    });
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe('session_required');
  });
});

describe('items and providers', () => {
  it('answers a model with details, the provider credit and whether the workspace has it', async () => {
    const response = await fetch(
      `${server.url}/external-assets/items/library_c/${encodeURIComponent('edanmdm:nasm_A19610048000')}`,
      { headers: owner.headers },
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.asset).toMatchObject({
      provider: 'library_c',
      providerAssetId: 'edanmdm:nasm_A19610048000',
      licenseTier: 'allowed',
    });
    expect(body.alreadyImported).toBeNull();
    expect(body.provider.name).toBe('Smithsonian Open Access');
    expect(body.provider.credit).toMatch(/Smithsonian/);
    expect(JSON.stringify(body)).not.toMatch(/\/dl\//);
    const missing = await fetch(`${server.url}/external-assets/items/library_a/no_such_model`, {
      headers: owner.headers,
    });
    expect(missing.status).toBe(404);
    const unknownLibrary = await fetch(`${server.url}/external-assets/items/library_x/abc`, { headers: owner.headers });
    expect(unknownLibrary.status).toBe(404);
  });

  it('lists the libraries with their supports flags, import availability, connection and the categories', async () => {
    const response = await fetch(`${server.url}/external-assets/providers`, { headers: owner.headers });
    const body = await response.json();
    expect(body.providers.map((p: any) => p.id)).toEqual(['library_a', 'library_b', 'library_c']);
    const b = body.providers[1];
    expect(b).toMatchObject({
      requiresAccountForImport: true,
      importAvailable: true,
      supports: { category: true, license: true, maxPolygons: true, format: true },
    });
    expect(b.connection).toMatchObject({ connected: false });
    expect(body.providers[0].connection).toBeUndefined();
    expect(body.categories.map((c: any) => c.id)).toContain('furniture');
  });
});

describe('rate limit', () => {
  it('allows RATE_LIMIT_SEARCH searches per person, then 429 rate_limited with Retry-After', async () => {
    const limited = await startTestServer({ ...libs.env, RATE_LIMIT_SEARCH: '3/1m' });
    try {
      const a = await limited.person('a@example.com');
      const b = await limited.person('b@example.com');
      const go = (p: TestPerson) =>
        fetch(`${limited.url}/external-assets/search?q=chair&providers=library_a`, { headers: p.headers });
      for (let i = 0; i < 3; i++) expect((await go(a)).status).toBe(200);
      const refused = await go(a);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await refused.json()).error).toBe('rate_limited');
      expect((await go(b)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
