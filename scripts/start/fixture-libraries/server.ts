import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  POLY_HAVEN,
  SKETCHFAB,
  SKETCHFAB_LICENSES,
  SMITHSONIAN,
  type FileKind,
  type SketchfabEntry,
  type SmithsonianEntry,
} from './catalogue.js';
import {
  brokenArchive,
  chairDocument,
  chairZip,
  glbOf,
  gltfFiles,
  streamedArchive,
  zipBombArchive,
  zipSlipArchive,
} from './models.js';
import { thumbnailSvg } from './thumbnail-svg.js';

/**
 * Local stand-ins for the three online libraries in their real APIs' shapes (libraries.md), for the
 * tests, the bench and an offline `npm start`. Each library can be made slow or failing.
 */
export type FixtureProvider = 'library_a' | 'library_b' | 'library_c';

export interface LibraryBehaviour {
  /** Wait before every API answer (not downloads). */
  delayMs?: number;
  /** Answer every API call with this status instead. */
  failStatus?: number;
}

export interface FixtureLibrariesOptions {
  port?: number;
  host?: string;
  /** Lifetime of issued library_b access tokens (default 30 days, as Sketchfab's). */
  accessTokenTtlSeconds?: number;
  behaviour?: Partial<Record<FixtureProvider, LibraryBehaviour>>;
}

export interface FixtureLibraries {
  origin: string;
  /** The LIBRARY_* settings pointing at these fixtures (and LIBRARY_ALLOW_PRIVATE=1). */
  env: Record<string, string>;
  behaviour: Record<FixtureProvider, LibraryBehaviour>;
  /** API calls answered per library (downloads not counted). */
  hits: Record<FixtureProvider, number>;
  /** Download requests per path. */
  downloads: string[];
  /** Refresh-token grants answered. */
  refreshes: number;
  close(): Promise<void>;
}

const FIXTURE_CLIENT = { id: 'fixture-client-id', secret: 'fixture-client-secret' };
const FIXTURE_SMITHSONIAN_KEY = 'fixture-api-key';

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .split('/')
    .map((p) =>
      p
        .replace(/&/g, ' ')
        .trim()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, ''),
    )
    .join('/');

export async function startFixtureLibraries(options: FixtureLibrariesOptions = {}): Promise<FixtureLibraries> {
  const files = new Map<string, Promise<Map<string, Uint8Array>>>();
  /** A model's files (relative path → bytes), made once on first use. */
  function modelFiles(kind: FileKind): Promise<Map<string, Uint8Array>> {
    let made = files.get(kind);
    if (!made) {
      made = (async (): Promise<Map<string, Uint8Array>> => {
        switch (kind) {
          case 'chair-gltf':
            return gltfFiles(await chairDocument());
          case 'chair-glb':
            return new Map([['model.glb', await glbOf(await chairDocument())]]);
          case 'zip-slip':
            return new Map([['scene.zip', await zipSlipArchive()]]);
          case 'zip-bomb':
            return new Map([['scene.zip', zipBombArchive()]]);
          case 'broken':
            return new Map([['scene.zip', brokenArchive()]]);
          case 'bench-20mb':
            return new Map([['scene.zip', await chairZip({ seatSubdivisions: 200, textures: 5, textureSize: 1024 })]]);
          default:
            return new Map();
        }
      })();
      files.set(kind, made);
    }
    return made;
  }
  const zipOf = async (entry: SketchfabEntry) => {
    const model = await modelFiles(entry.file);
    if (model.has('scene.zip')) return model.get('scene.zip')!;
    return chairZip();
  };

  const state = {
    behaviour: { library_a: {}, library_b: {}, library_c: {}, ...options.behaviour } as Record<
      FixtureProvider,
      LibraryBehaviour
    >,
    hits: { library_a: 0, library_b: 0, library_c: 0 } as Record<FixtureProvider, number>,
    downloads: [] as string[],
    refreshes: 0,
  };
  const codes = new Map<string, { redirectUri: string }>();
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  const ttl = options.accessTokenTtlSeconds ?? 2_592_000;
  let origin = '';

  function issueTokens() {
    const access = randomBytes(16).toString('hex');
    const refresh = randomBytes(16).toString('hex');
    accessTokens.set(access, Date.now() + ttl * 1000);
    refreshTokens.add(refresh);
    return { access_token: access, expires_in: ttl, token_type: 'Bearer', scope: 'read write', refresh_token: refresh };
  }

  // ---------- Poly Haven ----------
  async function polyHaven(res: ServerResponse, path: string, query: URLSearchParams) {
    res.setHeader('terms-of-service', 'https://github.com/Poly-Haven/Public-API/blob/master/ToS.md');
    const info = (e: (typeof POLY_HAVEN)[number]) => ({
      name: e.name,
      type: 2,
      description: `Free CC0 model: ${e.name.toLowerCase()}.`,
      date_published: 1634860800,
      download_count: e.downloads,
      files_hash: createHash('sha1').update(e.id).digest('hex'),
      authors: e.authors,
      categories: e.category.split('/').map((p) => slug(p)),
      category: e.category,
      tags: e.tags,
      max_resolution: [2048, 2048],
      thumbnail_url: `${origin}/thumbs/library_a/${encodeURIComponent(e.id)}.svg?width=256&height=256`,
    });
    if (path === '/assets') {
      const type = query.get('t') ?? query.get('type') ?? 'all';
      if (!['models', 'all', 'hdris', 'textures'].includes(type)) return json(res, 400, { error: 'Invalid type' });
      const category = query.get('category');
      const found = POLY_HAVEN.filter(() => type === 'models' || type === 'all').filter(
        (e) => !category || slug(e.category) === category || slug(e.category).startsWith(`${category}/`),
      );
      return json(res, 200, Object.fromEntries(found.map((e) => [e.id, info(e)])));
    }
    const m = /^\/(info|files)\/([^/]+)$/.exec(path);
    const entry = m && POLY_HAVEN.find((e) => e.id === m[2]);
    if (!m) return json(res, 404, { error: 'Not found' });
    if (!/^[a-zA-Z0-9_-]{1,50}$/.test(m[2])) return json(res, 400, { error: 'Invalid asset ID' });
    if (!entry) return json(res, 404, { error: 'Asset not found' });
    if (m[1] === 'info') return json(res, 200, info(entry));
    const model =
      entry.file === 'broken'
        ? new Map([
            ['scene.gltf', brokenGltf()],
            ['scene.bin', new Uint8Array(64)],
          ])
        : await modelFiles(entry.file);
    const file = (path: string, bytes: Uint8Array) => ({
      url: `${origin}/dl/library_a/${entry.id}/${path}`,
      size: bytes.length,
      md5: createHash('md5').update(bytes).digest('hex'),
    });
    const main = model.get('scene.gltf')!;
    const include = Object.fromEntries(
      [...model].filter(([p]) => p !== 'scene.gltf').map(([p, bytes]) => [p, file(p, bytes)]),
    );
    const res1k = { gltf: { ...file('scene.gltf', main), include } };
    return json(res, 200, {
      gltf: { '1k': res1k, '2k': res1k },
      blend: { '1k': { blend: { url: `${origin}/dl/none.blend`, size: 1000, md5: 'x' } } },
    });
  }

  // ---------- Sketchfab ----------
  const skfbModel = (e: SketchfabEntry, detail = false) => {
    const licence = SKETCHFAB_LICENSES[e.license];
    return {
      uid: e.uid,
      name: e.name,
      uri: `${origin}/sketchfab/v3/models/${e.uid}`,
      viewerUrl: `https://sketchfab.com/3d-models/${e.uid}`,
      isDownloadable: e.downloadable,
      isAgeRestricted: false,
      animationCount: 0,
      faceCount: e.faceCount,
      vertexCount: Math.round(e.faceCount / 2),
      publishedAt: '2024-03-01T10:00:00',
      user: {
        uid: 'u' + e.user,
        username: e.user,
        displayName: e.user.replace(/^./, (c) => c.toUpperCase()),
        profileUrl: `https://sketchfab.com/${e.user}`,
      },
      tags: e.tags.map((t) => ({ name: t, slug: t, uri: `${origin}/sketchfab/v3/tags/${t}` })),
      categories: [{ uid: 'cat-' + e.category, name: e.category, slug: e.category, uri: '' }],
      thumbnails: {
        images: [
          {
            uid: 't1',
            url: `${origin}/thumbs/library_b/${e.uid}.svg?size=1024`,
            width: 1024,
            height: 576,
          },
          {
            uid: 't2',
            url: `${origin}/thumbs/library_b/${e.uid}.svg?size=256`,
            width: 256,
            height: 144,
          },
        ],
      },
      license: detail
        ? {
            ...licence,
            fullName: licence.label,
            requirements: 'Author must be credited.',
            url: 'https://creativecommons.org/licenses/',
            uri: '',
          }
        : { uid: licence.uid, label: licence.label },
      archives: {
        gltf: {
          type: 'gltf',
          size: e.archiveSize,
          faceCount: e.faceCount,
          textureCount: 1,
          textureMaxResolution: 1024,
        },
      },
      ...(detail
        ? {
            description: `${e.name}, modelled for real-time use.`,
            downloadCount: 42,
            textureCount: 1,
            materialCount: 2,
            pbrType: 'metalness',
            price: null,
            isProtected: false,
          }
        : {}),
    };
  };

  async function sketchfab(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
    if (path === '/search') {
      if (query.get('type') !== 'models') return json(res, 400, { detail: 'type is required' });
      const words = (query.get('q') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const licences = [...query.getAll('license'), ...query.getAll('licenses')];
      const maxFaces = query.get('max_face_count');
      const found = SKETCHFAB.filter((e) => (query.get('downloadable') === 'true' ? e.downloadable : true))
        .filter((e) => words.every((w) => `${e.name} ${e.tags.join(' ')}`.toLowerCase().includes(w)))
        .filter((e) => !query.get('categories') || e.category === query.get('categories'))
        .filter((e) => licences.length === 0 || licences.includes(e.license))
        .filter((e) => !maxFaces || e.faceCount <= Number(maxFaces));
      const count = Math.min(24, Number(query.get('count') ?? 24) || 24);
      const cursor = Number(query.get('cursor') ?? 0) || 0;
      const page = found.slice(cursor, cursor + count);
      const next = cursor + count < found.length ? String(cursor + count) : null;
      return json(res, 200, {
        results: page.map((e) => skfbModel(e)),
        cursors: { next, previous: cursor > 0 ? String(Math.max(0, cursor - count)) : null },
        next: next ? `${origin}/sketchfab/v3/search?cursor=${next}` : null,
        previous: null,
      });
    }
    if (path === '/me') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !(accessTokens.get(token)! > Date.now()))
        return json(res, 401, { detail: 'Authentication credentials were not provided.' });
      return json(res, 200, {
        uid: 'me1',
        username: 'fixture-person',
        displayName: 'Fixture Person',
        profileUrl: 'https://sketchfab.com/fixture-person',
      });
    }
    const m = /^\/models\/([^/]+)(\/download)?$/.exec(path);
    const entry = m && SKETCHFAB.find((e) => e.uid === m[1]);
    if (!m || !entry) return json(res, 404, { detail: 'Not found.' });
    if (!m[2]) return json(res, 200, skfbModel(entry, true));
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !(accessTokens.get(token)! > Date.now()))
      return json(res, 401, { detail: 'User token is not valid or missing' });
    if (!entry.downloadable) return json(res, 400, { detail: 'Model is not downloadable' });
    const size =
      entry.file === 'huge-streamed' || entry.file === 'slow-streamed'
        ? entry.archiveSize
        : (await zipOf(entry)).length;
    const expires = Math.floor(Date.now() / 1000) + 300;
    return json(res, 200, {
      gltf: {
        url: `${origin}/dl/library_b/${entry.uid}/scene.zip?Expires=${expires}&Signature=fixture`,
        size,
        expires: 300,
      },
    });
  }

  async function oauth(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
    if (path === '/authorize/' || path === '/authorize') {
      // The person approves at once: the browser goes back to redirect_uri with a code.
      if (query.get('client_id') !== FIXTURE_CLIENT.id || query.get('response_type') !== 'code')
        return json(res, 400, { error: 'invalid_request' });
      const redirectUri = query.get('redirect_uri') ?? '';
      const code = randomBytes(12).toString('hex');
      codes.set(code, { redirectUri });
      const target = new URL(redirectUri);
      target.searchParams.set('code', code);
      target.searchParams.set('state', query.get('state') ?? '');
      res.writeHead(302, { location: target.href });
      return res.end();
    }
    if (path === '/token/' || path === '/token') {
      if (req.method !== 'POST') return json(res, 405, { error: 'method_not_allowed' });
      const form = new URLSearchParams(await readBody(req));
      if (form.get('client_id') !== FIXTURE_CLIENT.id || form.get('client_secret') !== FIXTURE_CLIENT.secret)
        return json(res, 401, { error: 'invalid_client' });
      if (form.get('grant_type') === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!code || code.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant' });
        return json(res, 200, issueTokens());
      }
      if (form.get('grant_type') === 'refresh_token') {
        const refresh = form.get('refresh_token') ?? '';
        if (!refreshTokens.delete(refresh)) return json(res, 400, { error: 'invalid_grant' });
        state.refreshes += 1;
        return json(res, 200, issueTokens());
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    return json(res, 404, { error: 'not_found' });
  }

  // ---------- Smithsonian ----------
  const siRow = (e: SmithsonianEntry) => {
    const pkg = `3d_package:${createHash('md5')
      .update(e.id)
      .digest('hex')
      .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*/, '$1-$2-$3-$4-$5')}`;
    const media = e.file
      ? [
          {
            type: '3d_voyager',
            idsId: pkg,
            content: `https://3d-api.si.edu/voyager/${pkg}`,
            thumbnail: `${origin}/thumbs/library_c/${encodeURIComponent(e.id)}.svg`,
            voyagerId: pkg,
            usage: { access: e.access },
            resources: [
              {
                filename: 'model-full.zip',
                category: 'Full resolution',
                type: '3D mesh',
                url: `${origin}/dl/library_c/none.zip`,
                title: 'Full resolution OBJ',
                attributes: [{ UNITS: 'mm' }, { MODEL_FILE_TYPE: 'obj' }, { FILE_TYPE: 'zip' }],
              },
              {
                filename: `${e.title.replace(/\W+/g, '')}-100k-2048_std_draco.glb`,
                category: 'Low resolution',
                type: '3D mesh',
                url: `${origin}/dl/library_c/${encodeURIComponent(e.id)}/draco.glb`,
                title: 'Low (draco)',
                attributes: [
                  { UNITS: 'm' },
                  { MODEL_FILE_TYPE: 'glb' },
                  { FILE_TYPE: 'glb' },
                  { GLTF_STANDARDIZED: true },
                  { DRACO_COMPRESSED: true },
                ],
              },
              {
                filename: `${e.title.replace(/\W+/g, '')}-150k-2048.glb`,
                category: 'Medium resolution',
                type: '3D mesh',
                url: `${origin}/dl/library_c/${encodeURIComponent(e.id)}/model.glb`,
                title: 'Medium',
                attributes: [
                  { UNITS: 'm' },
                  { MODEL_FILE_TYPE: 'GLB' },
                  { FILE_TYPE: 'glb' },
                  { GLTF_STANDARDIZED: true },
                  { DRACO_COMPRESSED: false },
                ],
              },
            ],
          },
        ]
      : [{ type: 'Images', content: 'https://ids.si.edu/ids/deliveryService?id=x', usage: { access: 'CC0' } }];
    return {
      id: e.id.replace(':', '-'),
      url: e.id,
      title: e.title,
      unitCode: e.unit,
      type: 'edanmdm',
      timestamp: 1700000000,
      content: {
        descriptiveNonRepeating: {
          record_ID: e.id.split(':')[1],
          unit_code: e.unit,
          data_source: e.unit,
          title: { label: 'Title', content: e.title },
          metadata_usage: { access: 'CC0' },
          record_link: `https://collections.si.edu/search/detail/${e.id}`,
          online_media: { mediaCount: media.length, media },
        },
        freetext: {
          ...(e.maker ? { name: [{ label: 'Maker', content: e.maker }] } : {}),
          notes: [{ label: 'Summary', content: `${e.title} from the ${e.unit} collection.` }],
        },
        indexedStructured: { online_media_type: e.file ? ['3D Models', 'Images'] : ['Images'], topic: e.topics },
      },
    };
  };

  function smithsonian(res: ServerResponse, path: string, query: URLSearchParams) {
    if (!query.get('api_key'))
      return json(res, 403, { error: { code: 'API_KEY_MISSING', message: 'No api_key was supplied.' } });
    if (query.get('api_key') !== FIXTURE_SMITHSONIAN_KEY && query.get('api_key') !== 'DEMO_KEY')
      return json(res, 403, { error: { code: 'API_KEY_INVALID', message: 'An invalid api_key was supplied.' } });
    const search = /^(?:\/category\/(art_design|history_culture|science_technology))?\/search$/.exec(path);
    if (search) {
      const q = query.get('q') ?? '';
      if (!q) return json(res, 400, { status: 400, responseCode: 0, response: { error: 'q is required' } });
      const wants3d = /online_media_type:"3D Models"/.test(q);
      const words = q
        .replace(/online_media_type:"3D Models"/g, '')
        .split(/\s+AND\s+|\s+/)
        .map((w) => w.trim().toLowerCase())
        .filter((w) => w && w !== '*' && w !== 'and');
      const found = SMITHSONIAN.filter((e) => !search[1] || e.route === search[1])
        .filter((e) => !wants3d || e.file !== null)
        .filter((e) => words.every((w) => `${e.title} ${e.topics.join(' ')}`.toLowerCase().includes(w)));
      const start = Number(query.get('start') ?? 0) || 0;
      let rows = Number(query.get('rows') ?? 10);
      if (!(rows >= 0 && rows <= 1000)) rows = 10;
      return json(res, 200, {
        status: 200,
        responseCode: 1,
        response: {
          rows: found.slice(start, start + rows).map(siRow),
          rowCount: found.length,
          message: 'content found',
        },
      });
    }
    const content = /^\/content\/(.+)$/.exec(path);
    if (content) {
      const entry = SMITHSONIAN.find((e) => e.id === decodeURIComponent(content[1]));
      if (!entry) return json(res, 404, { status: 404, responseCode: 0, response: { error: 'content not found' } });
      return json(res, 200, { status: 200, responseCode: 1, response: siRow(entry) });
    }
    return json(res, 404, { status: 404, responseCode: 0, response: { error: 'not found' } });
  }

  // ---------- downloads ----------
  async function download(res: ServerResponse, path: string) {
    state.downloads.push(path);
    const [provider, rawId, ...rest] = path.split('/').filter(Boolean);
    const id = decodeURIComponent(rawId ?? '');
    const file = rest.join('/');
    const send = (bytes: Uint8Array, type: string) => {
      res.writeHead(200, { 'content-type': type, 'content-length': String(bytes.length) });
      res.end(bytes);
    };
    if (provider === 'library_a') {
      const entry = POLY_HAVEN.find((e) => e.id === id);
      if (!entry) return json(res, 404, { error: 'not found' });
      const model =
        entry.file === 'broken'
          ? new Map([
              ['scene.gltf', brokenGltf()],
              ['scene.bin', new Uint8Array(64)],
            ])
          : await modelFiles(entry.file);
      const bytes = model.get(file);
      return bytes
        ? send(bytes, file.endsWith('.png') ? 'image/png' : 'application/octet-stream')
        : json(res, 404, { error: 'not found' });
    }
    if (provider === 'library_b') {
      const entry = SKETCHFAB.find((e) => e.uid === id);
      if (!entry) return json(res, 404, { error: 'not found' });
      if (entry.file === 'huge-streamed') {
        // Over 80 MB, chunked, made as it is sent: the importer must stop it, not buffer it.
        res.writeHead(200, { 'content-type': 'application/zip' });
        return streamedArchive(90_000_000).pipe(res);
      }
      if (entry.file === 'slow-streamed') {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(entry.archiveSize) });
        return streamedArchive(entry.archiveSize, { chunkBytes: 64 * 1024, delayMs: 100 }).pipe(res);
      }
      return send(await zipOf(entry), 'application/zip');
    }
    if (provider === 'library_c') {
      const entry = SMITHSONIAN.find((e) => e.id === id);
      const model = entry?.file ? await modelFiles(entry.file) : null;
      const glb = model?.get('model.glb');
      return glb && file === 'model.glb' ? send(glb, 'model/gltf-binary') : json(res, 404, { error: 'not found' });
    }
    return json(res, 404, { error: 'not found' });
  }

  // ---------- thumbnails ----------
  /** Each model's picture, drawn here so that the offline demo shows one (the real CDNs need the internet). */
  function thumbnail(res: ServerResponse, path: string) {
    const [provider, file] = path.split('/').filter(Boolean);
    const id = decodeURIComponent((file ?? '').replace(/\.svg$/, ''));
    const name =
      provider === 'library_a'
        ? POLY_HAVEN.find((e) => e.id === id)?.name
        : provider === 'library_b'
          ? SKETCHFAB.find((e) => e.uid === id)?.name
          : provider === 'library_c'
            ? SMITHSONIAN.find((e) => e.id === id)?.title
            : undefined;
    if (!name) return json(res, 404, { error: 'not found' });
    res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' });
    res.end(thumbnailSvg(name, id));
  }

  const routes: Array<
    [
      string,
      FixtureProvider | null,
      (req: IncomingMessage, res: ServerResponse, path: string, q: URLSearchParams) => unknown,
    ]
  > = [
    ['/polyhaven', 'library_a', (_req, res, p, q) => polyHaven(res, p, q)],
    ['/sketchfab/v3', 'library_b', sketchfab],
    ['/sketchfab/oauth2', null, oauth],
    ['/si/openaccess/api/v1.0', 'library_c', (_req, res, p, q) => smithsonian(res, p, q)],
    ['/dl', null, (_req, res, p) => download(res, p)],
    ['/thumbs', null, (_req, res, p) => thumbnail(res, p)],
  ];

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const route = routes.find(([prefix]) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
    if (!route) return json(res, 404, { error: 'not found' });
    const [prefix, provider, handler] = route;
    const path = url.pathname.slice(prefix.length) || '/';
    const behaviour = provider ? state.behaviour[provider] : {};
    if (provider) state.hits[provider] += 1;
    const run = () => {
      if (behaviour.failStatus)
        return json(res, behaviour.failStatus, {
          detail: 'fixture failure',
          error: { code: behaviour.failStatus === 429 ? 'OVER_RATE_LIMIT' : 'FAILED' },
        });
      return Promise.resolve(handler(req, res, path, url.searchParams)).catch((error: Error) =>
        json(res, 500, { error: error.message }),
      );
    };
    if (behaviour.delayMs) setTimeout(run, behaviour.delayMs);
    else void run();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  origin = `http://${options.host ?? '127.0.0.1'}:${address.port}`;

  return {
    origin,
    env: {
      LIBRARY_ALLOW_PRIVATE: '1',
      LIBRARY_A_API_URL: `${origin}/polyhaven`,
      LIBRARY_B_API_URL: `${origin}/sketchfab/v3`,
      LIBRARY_B_OAUTH_URL: `${origin}/sketchfab/oauth2`,
      LIBRARY_B_CLIENT_ID: FIXTURE_CLIENT.id,
      LIBRARY_B_CLIENT_SECRET: FIXTURE_CLIENT.secret,
      LIBRARY_C_API_URL: `${origin}/si/openaccess/api/v1.0`,
      LIBRARY_C_API_KEY: FIXTURE_SMITHSONIAN_KEY,
    },
    behaviour: state.behaviour,
    hits: state.hits,
    downloads: state.downloads,
    get refreshes() {
      return state.refreshes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A .gltf whose buffer view runs past its buffer: the validator refuses it. */
function brokenGltf(): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify({
      asset: { version: '2.0' },
      buffers: [{ byteLength: 64, uri: 'scene.bin' }],
      bufferViews: [{ buffer: 0, byteLength: 4096 }],
    }),
  );
}
