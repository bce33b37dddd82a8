import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { launchSystemChromium } from '../helpers/system-chromium.js';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { freePort } from '../helpers/test-env.js';
import type { ChildProcessHandle } from '../helpers/child-process.js';
import { startConsoleBff } from '../helpers/console-bff.js';
import { ensureConsoleBuilt, ensureElementBuilt } from '../../scripts/start/element-build.js';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { ownerCaller } from '../helpers/owner-call.js';
import { startTestWorker } from '../worker/submission-fixtures.js';
import type { WorkerApp } from '../../worker/app.js';

/**
 * The console's editor in Chromium against the real server and BFF: a project built by mouse and keyboard, from
 * creating it to deleting it (docs/owner-console.md, "The editor").
 */
/** Set to a folder to keep screenshots of the editor (for looking at it). */
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS;

let server: TestServer;
let bff: ChildProcessHandle;
let bffUrl: string;
let browser: Browser;
let owner: TestPerson;
let stoolFile: string;

const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);

let worker: WorkerApp;
beforeAll(async () => {
  await Promise.all([ensureElementBuilt(() => {}), ensureConsoleBuilt(() => {})]);
  const bffPort = await freePort();
  bffUrl = `http://127.0.0.1:${bffPort}`;
  server = await startTestServer({ CONSOLE_ORIGINS: bffUrl, TRUST_PROXY: '127.0.0.1,::1' });
  owner = await server.person('editor@console.test');
  // The worker makes delivery files, which the model list reports and the preview loads.
  worker = await startTestWorker(server.env.env);
  const started = startConsoleBff(server, bffPort);
  bff = started.bff;
  stoolFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'editor-e2e-')), 'stool.glb');
  [browser] = await Promise.all([launchSystemChromium(), writeFile(stoolFile, await demoStoolGlb()), started.ready]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await worker?.close(2000);
  await server?.close();
}, 60_000);

async function shoot(page: Page, name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
}

async function openConsole(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (error) => console.error('console page error:', error.message));
  await page.goto(`${bffUrl}/demo/owner/#token=${owner.token}`);
  await expect
    .poll(() => page.locator('#status').textContent(), { timeout: 20_000 })
    .toContain('Signed in as editor@console.test');
  return page;
}

const status = (page: Page) => page.locator('#status').textContent();

async function projectByName(name: string) {
  const { projects } = await ownerCall<{ projects: Array<{ id: string; name: string; thumbnailUrl: string | null }> }>(
    'GET',
    '/projects',
  );
  return projects.find((p) => p.name === name);
}

/** Creates a project through the dialog and waits for its editor. */
async function createProject(page: Page, name: string) {
  await page
    .getByRole('button', { name: /New project|Create your first project/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect.poll(() => page.getByLabel('Project name').inputValue(), { timeout: 10_000 }).toBe(name);
}

/** Uploads the demo stool in the Models section and waits until it is a model of the draft. */
async function uploadStool(page: Page) {
  await page.getByRole('button', { name: 'Models', exact: true }).click();
  await page.getByLabel(/Upload a model/).setInputFiles(stoolFile);
  await expect.poll(() => page.locator('#upload-result').count(), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => page.getByRole('button', { name: 'Remove model stool' }).count()).toBe(1);
}

describe('the console editor', () => {
  it('creates a project, uploads a model, undoes and redoes, saves, renames, duplicates and deletes', async () => {
    const page = await openConsole();
    // The first screen invites to create, with no word about the API.
    expect(await page.locator('project-list').textContent()).not.toContain('POST /projects');
    await createProject(page, 'Oak stool');
    await uploadStool(page);
    expect(await page.locator('#save-state').textContent()).toBe('Unsaved changes');
    // Rotation is typed in degrees and stored in radians, as the element turns models.
    const turn = page.getByLabel('Rotation (°) Y of stool');
    await turn.fill('90');
    await turn.press('Tab');
    await expect.poll(() => page.getByRole('button', { name: 'Undo' }).getAttribute('title')).toContain('Turn model');

    // Undo (button, then keyboard) and redo (keyboard, then button).
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => turn.inputValue()).toBe('0');
    await page.locator('body').click();
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.getByRole('button', { name: 'Remove model stool' }).count()).toBe(0);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => page.getByRole('button', { name: 'Remove model stool' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(() => turn.inputValue()).toBe('90');
    expect(await page.getByRole('button', { name: 'Redo' }).isDisabled()).toBe(true);
    await shoot(page, 'editor-models-1280');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#save-state').textContent(), { timeout: 10_000 }).toBe('All changes saved');
    const saved = await projectByName('Oak stool');
    const { project } = await ownerCall('GET', `/projects/${saved!.id}`);
    expect(project.data.models).toHaveLength(1);
    expect(project.data.models[0].rotation.y).toBeCloseTo(Math.PI / 2, 6);
    // The save gives the project's card a picture of the preview: the stool, not an empty frame.
    await expect
      .poll(async () => (await projectByName('Oak stool'))?.thumbnailUrl ?? null, { timeout: 20_000 })
      .toMatch(/\/files\/.+\.webp\?/);
    const picture = sharp(
      Buffer.from(await (await fetch((await projectByName('Oak stool'))!.thumbnailUrl!)).arrayBuffer()),
    );
    expect(await picture.metadata()).toMatchObject({ format: 'webp', width: 480, height: 300 });
    const { channels } = await picture.stats();
    expect(Math.max(...channels.slice(0, 3).map((channel) => channel.stdev))).toBeGreaterThan(5);

    // The workspace's list says what shoppers download once the delivery file is made.
    await expect
      .poll(() => page.locator('li.asset').first().textContent(), { timeout: 60_000 })
      .toMatch(/shoppers download \d+(\.\d)? (kB|MB) \(\d+% less\)/);

    await page.setViewportSize({ width: 1920, height: 1080 });
    await shoot(page, 'editor-models-1920');
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'editor-models-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Back to the list: duplicate, rename and delete (confirmed).
    await page.getByRole('button', { name: '← All projects' }).click();
    const card = page.getByRole('listitem').filter({ hasText: 'Oak stool' }).first();
    await expect
      .poll(() =>
        card.locator('img.thumb').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBe(480);
    await card.getByRole('button', { name: 'Duplicate' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Oak stool copy' }).count(), { timeout: 10_000 }).toBe(1);
    const copy = page.getByRole('listitem').filter({ hasText: 'Oak stool copy' });
    // The copy carries the original's picture.
    await expect
      .poll(() =>
        copy.locator('img.thumb').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBe(480);
    await copy.getByRole('button', { name: 'Rename…' }).click();
    const rename = page.getByRole('dialog', { name: /Rename/ });
    await rename.getByLabel('New name').fill('Walnut stool');
    await rename.getByRole('button', { name: 'Rename', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Walnut stool' }).count(), { timeout: 10_000 }).toBe(1);
    await shoot(page, 'projects-1280');
    const walnut = page.getByRole('listitem').filter({ hasText: 'Walnut stool' });
    await walnut.getByRole('button', { name: 'Delete…' }).click();
    await page
      .getByRole('dialog', { name: /Delete Walnut stool/ })
      .getByRole('button', { name: 'Cancel' })
      .click();
    expect(await projectByName('Walnut stool')).toBeTruthy();
    await walnut.getByRole('button', { name: 'Delete…' }).click();
    await page
      .getByRole('dialog', { name: /Delete Walnut stool/ })
      .getByRole('button', { name: 'Delete project' })
      .click();
    await expect.poll(() => page.getByRole('button', { name: 'Walnut stool' }).count(), { timeout: 10_000 }).toBe(0);
    expect(await projectByName('Walnut stool')).toBeUndefined();
    await page.close();
  }, 120_000);

  it('picks parts to delete in the model outline', async () => {
    const page = await openConsole();
    await createProject(page, 'Parts stool');
    await uploadStool(page);
    await page.getByRole('checkbox', { name: /Footrest/ }).check();
    await expect.poll(() => page.getByRole('button', { name: 'Undo' }).getAttribute('title')).toContain('Parts');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#save-state').textContent(), { timeout: 10_000 }).toBe('All changes saved');
    const { id } = (await projectByName('Parts stool'))!;
    expect((await ownerCall('GET', `/projects/${id}`)).project.data.models[0].deletedParts).toEqual(['Footrest']);
    await page.close();
  }, 60_000);

  it('asks before leaving with unsaved edits', async () => {
    const page = await openConsole();
    await createProject(page, 'Leaving stool');
    await uploadStool(page);
    await page.getByRole('button', { name: 'Library' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Stay' }).click();
    expect(await page.locator('#save-state').textContent()).toBe('Unsaved changes');
    await page.getByRole('button', { name: 'Library' }).click();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await expect.poll(() => page.locator('library-panel').count()).toBe(1);
    await page.close();
  }, 60_000);

  it('shows unsaved edits in the live preview', async () => {
    const page = await openConsole();
    await createProject(page, 'Preview stool');
    await uploadStool(page);
    const preview = page.locator('config-share#live-preview');
    await expect.poll(() => preview.getAttribute('state'), { timeout: 60_000 }).toBe('ready');
    await shoot(page, 'editor-preview-1280');
    await page.close();
  }, 90_000);

  it('on a conflict, loads their revision and re-applies the edits of this session', async () => {
    const page = await openConsole();
    await createProject(page, 'Shared stool');
    const { id } = (await projectByName('Shared stool'))!;
    await uploadStool(page);
    // Someone else saves meanwhile (another key than the models this session changed).
    const { project } = await ownerCall('GET', `/projects/${id}`);
    await ownerCall('PUT', `/projects/${id}`, {
      name: project.name,
      type: project.type,
      data: { ...project.data, saveConfigEnabled: true },
    });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Someone else saved this project' });
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await dialog.textContent()).toContain('Revision 2');
    await shoot(page, 'editor-conflict-1280');
    await dialog.getByRole('button', { name: 'Load theirs and re-apply my edits' }).click();
    await expect.poll(() => status(page)).toContain('re-applied your edits');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#save-state').textContent(), { timeout: 10_000 }).toBe('All changes saved');
    const after = (await ownerCall('GET', `/projects/${id}`)).project;
    expect(after.revision).toBe(3);
    expect(after.data.saveConfigEnabled).toBe(true);
    expect(after.data.models).toHaveLength(1);

    // History: the first revision restored as a new one, and the draft follows it.
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.getByRole('button', { name: 'View revision 1' }).click();
    const historyText = () => page.locator('editor-history-panel').evaluate((el) => el.shadowRoot?.textContent ?? '');
    await expect.poll(historyText, { timeout: 10_000 }).toContain('0 model(s)');
    await page.getByRole('button', { name: 'Restore revision 1', exact: true }).click();
    await expect.poll(() => status(page), { timeout: 10_000 }).toContain('Revision 1 restored as revision 4');
    expect((await ownerCall('GET', `/projects/${id}`)).project.data.models).toEqual([]);
    await page.close();
  }, 90_000);
});
