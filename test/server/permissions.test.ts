import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { chairGlb, uploadForm } from '../helpers/model-fixtures.js';
import { TEST_SECRETS } from '../helpers/test-env.js';

/**
 * The permission matrix (docs/api.md, Credentials and permissions) on every owner route: owner, editor, viewer,
 * another workspace's owner, an API key of the workspace, and no credentials.
 */
type Principal = 'owner' | 'editor' | 'viewer' | 'stranger' | 'apiKey' | 'anonymous';
type Level = 'read' | 'write' | 'secrets' | 'manage';

interface RouteCase {
  name: string;
  method: string;
  level: Level;
  /** Creates what the route acts on (as the owner) and returns the path and body. */
  prepare(): Promise<{ path: string; body?: unknown; multipart?: FormData }>;
  /** Status a permitted caller gets. */
  ok: number;
  /** For list routes a stranger sees its own empty workspace instead of a 404. */
  collection?: boolean;
}

let server: TestServer;
const who = {} as Record<Exclude<Principal, 'anonymous' | 'apiKey'>, TestPerson>;
let apiKey = '';

const ONE_PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const projectBody = { name: 'Matrix', type: 'configurator', data: { models: [], sceneData: {} } };

async function asOwner(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...who.owner.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json();
}
const newProject = async () => (await asOwner('POST', '/projects', projectBody)).project.id as string;
let glb: Uint8Array;
async function newAsset(): Promise<string> {
  const res = await fetch(`${server.url}/assets`, {
    method: 'POST',
    headers: who.owner.headers,
    body: uploadForm(glb, 'chair.glb'),
  });
  return (await res.json()).asset.id;
}
const shareBody = { isEnabled: true, requirePassword: false, domainRestrictions: [] };
const publicHeaders = {
  apikey: TEST_SECRETS.PUBLIC_ANON_KEY,
  authorization: `Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}`,
  'content-type': 'application/json',
};
/** A project with a live share and one visitor request; its requests path. */
async function newRequest(): Promise<string> {
  const projectId = await newProject();
  const { settings } = await asOwner('POST', `/projects/${projectId}/share/enable`);
  const res = await fetch(`${server.url}/share/${projectId}/${settings.shareToken}/submit`, {
    method: 'POST',
    headers: publicHeaders,
    body: JSON.stringify({ formData: { name: 'Ada' } }),
  });
  return `/projects/${projectId}/requests/${(await res.json()).requestId}`;
}

const routes: RouteCase[] = [
  {
    name: 'list projects',
    method: 'GET',
    level: 'read',
    ok: 200,
    collection: true,
    prepare: async () => ({ path: '/projects' }),
  },
  {
    name: 'create project',
    method: 'POST',
    level: 'write',
    ok: 201,
    collection: true,
    prepare: async () => ({ path: '/projects', body: projectBody }),
  },
  {
    name: 'read project',
    method: 'GET',
    level: 'read',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}` }),
  },
  {
    name: 'replace project',
    method: 'PUT',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}`, body: projectBody }),
  },
  {
    name: 'list project revisions',
    method: 'GET',
    level: 'read',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/revisions` }),
  },
  {
    name: 'read project revision',
    method: 'GET',
    level: 'read',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/revisions/1` }),
  },
  {
    name: 'restore project revision',
    method: 'POST',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/revisions/1/restore` }),
  },
  {
    name: 'preview project data',
    method: 'POST',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/preview`, body: { data: projectBody.data } }),
  },
  {
    name: 'set project thumbnail',
    method: 'PUT',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/thumbnail`, body: { image: ONE_PIXEL_PNG } }),
  },
  {
    name: 'remove project thumbnail',
    method: 'DELETE',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/thumbnail` }),
  },
  {
    name: 'list cart configurations',
    method: 'GET',
    level: 'read',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/configurations` }),
  },
  {
    name: 'delete project',
    method: 'DELETE',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}` }),
  },
  {
    name: 'list API keys',
    method: 'GET',
    level: 'manage',
    ok: 200,
    collection: true,
    prepare: async () => ({ path: '/workspace/api-keys' }),
  },
  {
    name: 'create API key',
    method: 'POST',
    level: 'manage',
    ok: 201,
    collection: true,
    prepare: async () => ({ path: '/workspace/api-keys', body: { name: 'ci' } }),
  },
  {
    name: 'delete API key',
    method: 'DELETE',
    level: 'manage',
    ok: 200,
    prepare: async () => ({
      path: `/workspace/api-keys/${(await asOwner('POST', '/workspace/api-keys', { name: 'x' })).apiKey.id}`,
    }),
  },
  {
    name: 'read share settings',
    method: 'GET',
    level: 'read',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/share` }),
  },
  {
    name: 'enable share',
    method: 'POST',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/share/enable` }),
  },
  {
    name: 'replace share settings',
    method: 'PUT',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/share`, body: shareBody }),
  },
  {
    name: 'regenerate share token',
    method: 'POST',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/share/regenerate` }),
  },
  {
    name: 'list assets',
    method: 'GET',
    level: 'read',
    ok: 200,
    collection: true,
    prepare: async () => ({ path: '/assets' }),
  },
  {
    name: 'upload asset',
    method: 'POST',
    level: 'write',
    ok: 201,
    collection: true,
    prepare: async () => ({ path: '/assets', multipart: uploadForm(glb, 'chair.glb') }),
  },
  {
    name: 'read asset',
    method: 'GET',
    level: 'read',
    ok: 200,
    prepare: async () => ({ path: `/assets/${await newAsset()}` }),
  },
  {
    name: 'delete asset',
    method: 'DELETE',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: `/assets/${await newAsset()}` }),
  },
  {
    name: 'list requests',
    method: 'GET',
    level: 'read',
    ok: 200,
    prepare: async () => ({ path: `/projects/${await newProject()}/requests` }),
  },
  { name: 'read request', method: 'GET', level: 'read', ok: 200, prepare: async () => ({ path: await newRequest() }) },
  {
    name: 'set request status',
    method: 'PATCH',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: await newRequest(), body: { status: 'quoted' } }),
  },
  {
    name: 'delete request',
    method: 'DELETE',
    level: 'write',
    ok: 200,
    prepare: async () => ({ path: await newRequest() }),
  },
];

/** What each principal must get on a route of a level. */
function expected(principal: Principal, route: RouteCase): number {
  if (principal === 'anonymous') return 401;
  if (principal === 'apiKey') return route.level === 'manage' ? 401 : route.ok;
  if (principal === 'stranger') {
    // Their own workspace: collections answer (empty), others' resources do not exist.
    return route.collection ? route.ok : 404;
  }
  if (principal === 'viewer') return route.level === 'read' ? route.ok : 403;
  if (principal === 'editor') return route.level === 'manage' ? 403 : route.ok;
  return route.ok;
}

function headersOf(principal: Principal): Record<string, string> {
  if (principal === 'anonymous') return {};
  if (principal === 'apiKey') return { 'x-api-key': apiKey };
  return who[principal].headers;
}

beforeAll(async () => {
  server = await startTestServer();
  who.owner = await server.person('owner@matrix.test');
  who.editor = await server.member(who.owner.workspaceId, 'editor@matrix.test', 'editor');
  who.viewer = await server.member(who.owner.workspaceId, 'viewer@matrix.test', 'viewer');
  who.stranger = await server.person('stranger@matrix.test');
  glb = await chairGlb();
  apiKey = (await asOwner('POST', '/workspace/api-keys', { name: 'matrix' })).key;
});
afterAll(() => server.close());

describe('permission matrix', () => {
  const principals: Principal[] = ['owner', 'editor', 'viewer', 'stranger', 'apiKey', 'anonymous'];
  for (const route of routes) {
    for (const principal of principals) {
      it(`${route.name}: ${principal} gets ${expected(principal, route)}`, async () => {
        const { path, body, multipart } = await route.prepare();
        const res = await fetch(`${server.url}${path}`, {
          method: route.method,
          headers: { ...headersOf(principal), ...(body ? { 'content-type': 'application/json' } : {}) },
          body: multipart ?? (body ? JSON.stringify(body) : undefined),
        });
        const status = expected(principal, route);
        expect(res.status).toBe(status);
        if (status >= 400) {
          const error = await res.json();
          expect(error.success).toBe(false);
          expect(error.error).toBe(
            { 401: principal === 'apiKey' ? 'session_required' : 'unauthorized', 403: 'forbidden', 404: 'not_found' }[
              status as 401 | 403 | 404
            ],
          );
        }
      });
    }
  }

  it('refuses a workspace the person is not a member of', async () => {
    const res = await fetch(`${server.url}/projects`, {
      headers: { ...who.stranger.headers, 'x-workspace-id': who.owner.workspaceId },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe('forbidden');
  });

  it('refuses a forged or expired token and an unknown API key', async () => {
    const forged = who.owner.token.slice(0, -4) + 'AAAA';
    expect((await fetch(`${server.url}/projects`, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(
      401,
    );
    expect((await fetch(`${server.url}/projects`, { headers: { 'x-api-key': 'csk_nope' } })).status).toBe(401);
  });
});
