import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { blankPng } from '../helpers/blank-png.js';
import { dataUrl, jpeg, png } from '../worker/submission-fixtures.js';
import { sweepUnclaimedFiles } from '#core/services/storage-sweep.js';

let server: TestServer;
let owner: TestPerson;
let viewer: TestPerson;

beforeAll(async () => {
  server = await startTestServer();
  owner = await server.person('owner@thumbnails.test');
  viewer = await server.member(owner.workspaceId, 'viewer@thumbnails.test', 'viewer');
});
afterAll(() => server.close());

const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });

async function newProject(): Promise<{ id: string; revision: number }> {
  const res = await fetch(`${server.url}/projects`, {
    method: 'POST',
    headers: json(owner.headers),
    body: JSON.stringify({ name: 'Stool', type: 'configurator', data: { models: [], sceneData: {} } }),
  });
  return (await res.json()).project;
}

const putThumbnail = (id: string, image: unknown, who = owner) =>
  fetch(`${server.url}/projects/${id}/thumbnail`, {
    method: 'PUT',
    headers: json(who.headers),
    body: JSON.stringify({ image }),
  });

async function listed(id: string) {
  const { projects } = await (await fetch(`${server.url}/projects`, { headers: owner.headers })).json();
  return projects.find((project: { id: string }) => project.id === id);
}

async function thumbnailKeyOf(id: string): Promise<string | null> {
  const { rows } = await server.deps.db.$client.query('select thumbnail_key from projects where id = $1', [id]);
  return rows[0].thumbnail_key;
}

describe('project thumbnails', () => {
  it('stores a picture, lists and reads it as a signed URL, and serves its bytes', async () => {
    const project = await newProject();
    expect((await listed(project.id)).thumbnailUrl).toBeNull();

    const image = png(32, 24);
    const res = await putThumbnail(project.id, dataUrl('image/png', image));
    expect(res.status).toBe(200);
    const { thumbnailUrl } = await res.json();
    expect(thumbnailUrl).toMatch(/\/files\/.+\.png\?exp=\d+&sig=/);

    expect((await listed(project.id)).thumbnailUrl).toBe(thumbnailUrl);
    const read = await (await fetch(`${server.url}/projects/${project.id}`, { headers: owner.headers })).json();
    expect(read.project.thumbnailUrl).toBe(thumbnailUrl);
    // Not a change of the project: no new revision, so no save conflicts with it.
    expect(read.project.revision).toBe(project.revision);

    const file = await fetch(thumbnailUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(image)).toBe(true);
  });

  it('replaces the picture with a new URL and removes the old file', async () => {
    const project = await newProject();
    const first = await (await putThumbnail(project.id, dataUrl('image/png', png(8, 8)))).json();
    const firstKey = await thumbnailKeyOf(project.id);
    const second = await (await putThumbnail(project.id, dataUrl('image/jpeg', jpeg()))).json();
    expect(second.thumbnailUrl).not.toBe(first.thumbnailUrl);
    expect(second.thumbnailUrl).toMatch(/\.jpeg\?/);
    await expect.poll(async () => (await server.deps.storage.head(firstKey!)) === null).toBe(true);
    expect((await fetch(second.thumbnailUrl)).status).toBe(200);
  });

  it('removes the picture on DELETE and with the project', async () => {
    const project = await newProject();
    await putThumbnail(project.id, dataUrl('image/png', png()));
    const key = (await thumbnailKeyOf(project.id))!;
    const removed = await fetch(`${server.url}/projects/${project.id}/thumbnail`, {
      method: 'DELETE',
      headers: owner.headers,
    });
    expect(removed.status).toBe(200);
    expect((await listed(project.id)).thumbnailUrl).toBeNull();
    await expect.poll(async () => (await server.deps.storage.head(key)) === null).toBe(true);

    await putThumbnail(project.id, dataUrl('image/png', png(10, 10)));
    const kept = (await thumbnailKeyOf(project.id))!;
    await fetch(`${server.url}/projects/${project.id}`, { method: 'DELETE', headers: owner.headers });
    await expect.poll(async () => (await server.deps.storage.head(kept)) === null).toBe(true);
  });

  it('refuses what is not a small image, naming the rule, and keeps the picture it had', async () => {
    const project = await newProject();
    const good = await (await putThumbnail(project.id, dataUrl('image/png', png()))).json();
    const refused = async (image: unknown, status = 400) => {
      const res = await putThumbnail(project.id, image);
      expect(res.status).toBe(status);
      return (await res.json()) as { error: string; message: string };
    };
    expect((await refused('https://example.com/a.png')).message).toMatch(/base64 data URL/);
    expect((await refused('data:image/gif;base64,R0lGODlhAQABAAAAACw=')).message).toMatch(/image\/png/);
    expect((await refused(dataUrl('image/png', Buffer.from('not a png')))).message).toMatch(/readable header/);
    expect((await refused(dataUrl('image/png', blankPng(1025, 10)))).message).toMatch(/at most 1024 per side/);
    expect((await refused(42)).error).toBe('invalid_request');
    const tooBig = dataUrl('image/png', Buffer.alloc(300 * 1024));
    expect([400, 413]).toContain((await putThumbnail(project.id, tooBig)).status);
    expect((await listed(project.id)).thumbnailUrl).toBe(good.thumbnailUrl);
  });

  it('lets viewers see but not set thumbnails, and answers 404 for another workspace', async () => {
    const project = await newProject();
    expect((await putThumbnail(project.id, dataUrl('image/png', png()), viewer)).status).toBe(403);
    const stranger = await server.person('stranger@thumbnails.test');
    expect((await putThumbnail(project.id, dataUrl('image/png', png()), stranger)).status).toBe(404);
    expect((await putThumbnail('00000000-0000-4000-8000-000000000000', dataUrl('image/png', png()))).status).toBe(404);
  });

  it('is kept by the storage sweeper while a project names it, and swept when none does', async () => {
    const project = await newProject();
    await putThumbnail(project.id, dataUrl('image/png', png(12, 12)));
    const key = (await thumbnailKeyOf(project.id))!;
    const orphan = key.replace(/-[^-/]+\.png$/, '-orphan.png');
    await server.deps.storage.put(orphan, png(), { contentType: 'image/png' });
    const swept = await sweepUnclaimedFiles(server.deps, { graceMs: 0, now: Date.now() + 1000 });
    expect(swept.removed).toContain(orphan);
    expect(swept.removed).not.toContain(key);
  });
});
