import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { launchSystemChromium } from '../helpers/system-chromium.js';
import { startTestServer, type TestPerson, type TestServer } from '../helpers/test-server.js';
import { freePort, TEST_SECRETS } from '../helpers/test-env.js';
import type { ChildProcessHandle } from '../helpers/child-process.js';
import { startConsoleBff } from '../helpers/console-bff.js';
import { startShop } from '../helpers/merchant-shop.js';
import { waitFor } from '../worker/submission-fixtures.js';
import { ensureConsoleBuilt, ensureElementBuilt } from '../../scripts/start/element-build.js';
import { demoStoolGlb } from '../../scripts/start/demo-model.js';
import { demoProjectData } from '../../scripts/start/demo-data.js';
import { ownerCaller } from '../helpers/owner-call.js';
import { computePrice, parseScene, resolveOptions } from '#core/wire/configurator/index.js';

/**
 * The demo stool of `npm start` built with the owner console alone, as a person would (docs/owner-console.md,
 * "The editor"): its public read prices like the demo's data, and a merchant page shows its walnut seat.
 */
let server: TestServer;
let bff: ChildProcessHandle;
let bffUrl: string;
let shopUrl: string;
let browser: Browser;
let owner: TestPerson;
let stoolFile: string;
const stops: Array<() => Promise<unknown>> = [];

const ownerCall = ownerCaller(
  () => server.url,
  () => owner.headers,
);

beforeAll(async () => {
  await Promise.all([ensureElementBuilt(() => {}), ensureConsoleBuilt(() => {})]);
  const bffPort = await freePort();
  bffUrl = `http://127.0.0.1:${bffPort}`;
  server = await startTestServer({ CONSOLE_ORIGINS: bffUrl, TRUST_PROXY: '127.0.0.1,::1' });
  owner = await server.person('builder@console.test');
  const started = startConsoleBff(server, bffPort);
  bff = started.bff;
  stoolFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stool-e2e-')), 'stool.glb');
  [browser, shopUrl] = await Promise.all([
    launchSystemChromium(),
    startShop(bffUrl, 480, 480, stops),
    writeFile(stoolFile, await demoStoolGlb()),
    started.ready,
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const stop of stops) await stop();
  await bff?.stop();
  await server?.close();
}, 60_000);

async function openConsole(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // Chromium draws the live preview in software, busy for seconds at a time on a loaded machine.
  page.setDefaultTimeout(45_000);
  page.on('pageerror', (error) => console.error('console page error:', error.message));
  await page.goto(`${bffUrl}/demo/owner/#token=${owner.token}`);
  await expect
    .poll(() => page.locator('#status').textContent(), { timeout: 20_000 })
    .toContain('Signed in as builder@console.test');
  return page;
}

/** Types into a field and leaves it, as a person does: the editor commits on change. */
async function type(field: Locator, text: string) {
  await field.fill(text);
  await field.press('Tab');
}

async function section(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click();
}

/** Adds a block named `name` of `kind` in the Options section; returns its card. */
async function addBlock(page: Page, name: string, kind: 'choice' | 'swatch' | 'toggle') {
  await page.getByLabel('New block name').fill(name);
  await page.getByRole('button', { name: 'Add block' }).click();
  const block = page.getByRole('region', { name: `Block ${name}` });
  await block.getByLabel('Type').selectOption(kind);
  return block;
}

/** Adds a choice labelled `label` to `block` (it opens); returns its card. */
async function addChoice(block: Locator, label: string) {
  await block.getByLabel('New choice label').fill(label);
  await block.getByRole('button', { name: 'Add choice' }).click();
  const choice = block.getByRole('group', { name: `Choice ${label}` });
  await choice.getByLabel('Add an effect of type').waitFor();
  return choice;
}

/** Adds an effect of `kind` to an open choice; returns the effect's editor. */
async function addEffect(choice: Locator, kind: 'material' | 'variant' | 'visibility') {
  const before = await choice.locator('editor-effect').count();
  await choice.getByLabel('Add an effect of type').selectOption(kind);
  const effect = choice.locator('editor-effect').nth(before);
  await effect.waitFor();
  return effect;
}

async function pickNodes(effect: Locator, ...names: string[]) {
  const parts = effect.getByRole('group', { name: 'Parts (nodes)' });
  for (const name of names) await parts.getByRole('checkbox', { name, exact: true }).check();
}

/** Changes a choice's id under its Advanced disclosure (last: the card closes once its id changes). */
async function setChoiceId(choice: Locator, id: string) {
  await choice.locator('details.advanced > summary').last().click();
  await type(choice.getByLabel('Choice id'), id);
}

/** The demo's option blocks, built by picking effects from the outline. */
async function buildOptions(page: Page) {
  await section(page, 'Options');
  const seat = await addBlock(page, 'Seat', 'swatch');
  const oak = await addChoice(seat, 'Oak');
  await oak.getByLabel('Default choice').check();
  await oak.getByLabel('Colour', { exact: true }).fill('#ceb390');
  const walnut = await addChoice(seat, 'Walnut');
  await type(walnut.getByLabel('Price', { exact: true }), '40');
  await walnut.getByLabel('Colour', { exact: true }).first().fill('#5a3a22');
  const stain = await addEffect(walnut, 'material');
  await pickNodes(stain, 'Seat', 'Backrest');
  await stain.getByLabel('Colour', { exact: true }).fill('#5a3a22');
  await type(stain.getByLabel('Roughness'), '0.55');

  const legs = await addBlock(page, 'Legs', 'choice');
  const steel = await addChoice(legs, 'Steel');
  await steel.getByLabel('Default choice').check();
  await type((await addEffect(steel, 'variant')).getByLabel('Variant', { exact: true }), 'steel');
  const brass = await addChoice(legs, 'Brass');
  await type(brass.getByLabel('Price', { exact: true }), '25');
  await type((await addEffect(brass, 'variant')).getByLabel('Variant', { exact: true }), 'brass');

  const backrest = await addBlock(page, 'Backrest', 'toggle');
  const off = await addChoice(backrest, 'Without backrest');
  await off.getByLabel('Default choice').check();
  await pickNodes(await addEffect(off, 'visibility'), 'Backrest');
  await setChoiceId(off, 'off');
  const on = await addChoice(backrest, 'With backrest');
  await type(on.getByLabel('Price', { exact: true }), '30');
  const shown = await addEffect(on, 'visibility');
  await shown.getByLabel('Visible', { exact: true }).check();
  await pickNodes(shown, 'Backrest');
  await setChoiceId(on, 'on');
}

/** Currency, tax and the base price; the live preview shows the price before anything is saved. */
async function buildPrice(page: Page) {
  await section(page, 'Price');
  await page.getByRole('combobox', { name: 'Currency' }).selectOption('EUR');
  await page.getByRole('button', { name: 'Add tax' }).click();
  await type(page.getByLabel('Tax rate (%)'), '19');
  await type(page.getByLabel('Tax label'), 'VAT');
  await page.getByRole('button', { name: 'Add a price line' }).click();
  const lines = page.getByRole('region', { name: 'Pricing blocks' });
  await type(lines.getByLabel('Price', { exact: true }), '149');
  await type(lines.getByLabel('Line id'), 'base');
  await page.getByText('Default price: €149.00').waitFor();
}

async function buildForm(page: Page) {
  await section(page, 'Form');
  await page.getByLabel('New field label').fill('Quantity');
  await page.getByLabel('New field type').selectOption('number');
  await page.getByRole('button', { name: 'Add field' }).click();
  const field = page.getByRole('region', { name: 'Field Quantity' });
  await type(field.getByLabel('Minimum'), '1');
  await type(field.getByLabel('Maximum'), '20');
  await type(field.getByLabel('Step'), '1');
  await type(field.getByLabel('Default'), '1');
}

async function buildFormula(page: Page) {
  await section(page, 'Price');
  await page.getByRole('button', { name: 'Add a formula step' }).click();
  const formula = page.getByRole('region', { name: 'Price formula' });
  await formula.getByLabel('Operation').selectOption('multiply');
  await formula.getByLabel('Operand').selectOption('field');
  expect(await formula.getByRole('combobox', { name: /^Form field/ }).inputValue()).toBe('quantity');
  await type(formula.getByLabel('Label', { exact: true }), 'Quantity');
}

const PUBLIC = { apikey: TEST_SECRETS.PUBLIC_ANON_KEY, authorization: `Bearer ${TEST_SECRETS.PUBLIC_ANON_KEY}` };

/**
 * The price of `data` for `selected` options and a quantity, as the server and the element compute it; without the
 * lines' SKUs, which the demo's cart has and this build does not type.
 */
function priceOf(data: unknown, selected: Record<string, string>, quantity: number) {
  const { scene } = parseScene(data);
  const price = computePrice(scene, resolveOptions(scene, selected).options, { quantity });
  return price && { ...price, lines: price.lines.map(({ sku: _sku, ...line }) => line) };
}

/** The mean brightness of a PNG data URL (0 to 255). */
async function brightness(png: string): Promise<number> {
  const { channels } = await sharp(Buffer.from(png.split(',')[1], 'base64')).stats();
  return (channels[0].mean + channels[1].mean + channels[2].mean) / 3;
}

describe('the console builds the demo stool', () => {
  it('from an upload to a shared configurator that prices and draws like the demo', async () => {
    const page = await openConsole();
    await page
      .getByRole('button', { name: /New project|Create your first project/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill('Console stool');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByLabel('Project name').inputValue()).toBe('Console stool');

    await page.getByLabel(/Upload a model/).setInputFiles(stoolFile);
    await expect.poll(() => page.locator('#upload-result').count(), { timeout: 30_000 }).toBe(1);
    await expect
      .poll(() => page.getByRole('button', { name: 'Remove model stool' }).count(), { timeout: 30_000 })
      .toBe(1);
    await page.getByRole('checkbox', { name: /Footrest/ }).check();

    await buildOptions(page);
    await buildPrice(page);
    // The live preview draws the unsaved draft: its price is the new base price.
    const previewPrice = page.locator('config-share#live-preview [part="price"]');
    await expect.poll(() => previewPrice.textContent(), { timeout: 30_000 }).toContain('149.00');
    await buildForm(page);
    await buildFormula(page);

    await section(page, 'Animations');
    await page.getByRole('button', { name: 'Add an animation' }).click();
    const turn = page.getByRole('region', { name: 'Animation Turn' });
    expect(await turn.getByRole('combobox', { name: 'Clip' }).inputValue()).toBe('Turn');
    await type(turn.getByLabel('Name', { exact: true }), 'Turn around');
    await page.getByRole('region', { name: 'Animation Turn around' }).waitFor();

    await section(page, 'Look');
    await page.getByLabel('Shoppers can save and share a configuration').check();

    expect(await page.locator('#save-state').textContent()).toBe('Unsaved changes');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('All changes saved');

    await section(page, 'Share');
    await page.getByRole('button', { name: 'Turn sharing on' }).click();
    await expect.poll(() => page.locator('#share-state').textContent()).toBe('on');
    const { projects } = await ownerCall<{ projects: Array<{ id: string; name: string }> }>('GET', '/projects');
    const projectId = projects.find((p) => p.name === 'Console stool')!.id;
    const { settings } = await ownerCall('GET', `/projects/${projectId}/share`);
    await page.close();

    // The public read prices every configuration as the demo's data does.
    const read = await fetch(`${server.url}/share/${projectId}/${settings.shareToken}`, { headers: PUBLIC });
    expect(read.status).toBe(200);
    const { project } = await read.json();
    expect(project.data.models[0].deletedParts).toEqual(['Footrest']);
    expect(project.data.saveConfigEnabled).toBe(true);
    expect(parseScene(project.data).warnings).toEqual([]);
    const demo = demoProjectData({ id: project.data.models[0].id, fileName: 'stool.glb', assetId: 'demo' });
    const all = { seat: 'walnut', legs: 'brass', backrest: 'on' };
    for (const [selected, quantity] of [
      [{}, 1],
      [all, 3],
      [{ seat: 'walnut' }, 20],
    ] as const) {
      const ours = priceOf(project.data, selected, quantity);
      expect(ours).not.toBeNull();
      expect(ours).toEqual(priceOf(demo, selected, quantity));
    }
    expect(priceOf(project.data, all, 3)!.total).toBe(73_200);

    // A merchant page: choosing Walnut darkens the drawn seat.
    const shop = await browser.newPage();
    const pageErrors: string[] = [];
    shop.on('pageerror', (error) => pageErrors.push(error.message));
    await shop.goto(`${shopUrl}/?share=${projectId}&share=${settings.shareToken}`);
    const element = shop.locator('config-share');
    await expect.poll(() => element.getAttribute('state'), { timeout: 60_000 }).toBe('ready');
    const capture = (): Promise<string> => element.evaluate((node: any) => node.screenshot());
    const oak = await waitFor(
      async () => {
        const png = await capture();
        const { channels } = await sharp(Buffer.from(png.split(',')[1], 'base64')).stats();
        return channels.slice(0, 3).some((channel) => channel.stdev > 1) ? png : null;
      },
      'a rendered frame',
      60_000,
    );
    const before = await brightness(oak);
    // The swatch's picture covers its radio, so the click goes to the radio itself.
    await shop.getByRole('radio', { name: /Walnut/ }).dispatchEvent('click');
    await expect.poll(async () => before - (await brightness(await capture())), { timeout: 20_000 }).toBeGreaterThan(1);
    expect(await element.evaluate((node: any) => node.getConfiguration().options)).toEqual({
      seat: 'walnut',
      legs: 'steel',
      backrest: 'off',
    });
    expect(pageErrors).toEqual([]);
    await shop.close();
  }, 420_000);
});
