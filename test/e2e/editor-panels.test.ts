import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchSystemChromium } from '../helpers/system-chromium.js';
import { demoStool } from '../server/wire/configurator/demo-stool.js';

/**
 * The editor's content panels in Chromium, mounted alone on a harness page that plays the editor's part: it keeps
 * every edit event and feeds its data back, as the editor shell does.
 */
/** Set to a folder to keep 1280×800 screenshots of each panel. */
const SCREENSHOTS = process.env.EDITOR_SCREENSHOTS;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const HARNESS = `
import './demo/owner/editor/panels/index.ts';
window.mountPanel = (tag, data, outlines, warnings) => {
  const panel = document.createElement(tag);
  Object.assign(panel, { data, outlines, warnings });
  window.edits = [];
  window.selected = [];
  panel.addEventListener('editor-edit', (event) => {
    window.edits.push(event.detail);
    panel.data = event.detail.data;
  });
  panel.addEventListener('editor-select-choice', (event) => window.selected.push(event.detail));
  document.body.replaceChildren(panel);
  return panel.updateComplete;
};
`;

const node = (name: string, parent: number | null, children: number[], mesh = false) => ({
  name,
  parent,
  mesh,
  children,
});
/** The demo stool's outline (Stool holds Seat, four legs, Backrest and Footrest). */
const STOOL_OUTLINE = {
  nodes: [
    node('Stool', null, [1, 2, 3, 4, 5, 6, 7]),
    node('Seat', 0, [], true),
    ...[1, 2, 3, 4].map((n) => node(`Leg_${n}`, 0, [], true)),
    node('Backrest', 0, [], true),
    node('Footrest', 0, [], true),
  ],
  materials: ['Oak', 'Steel', 'Brass'],
  variants: ['steel', 'brass'],
  animations: [{ name: 'Turn', duration: 2 }],
  bounds: { min: { x: -0.3, y: 0, z: -0.3 }, max: { x: 0.3, y: 0.9, z: 0.3 } },
  triangles: 1200,
  vertices: 900,
};
const OUTLINES = { stool: STOOL_OUTLINE };
const WARNINGS = [
  {
    path: 'sceneData.optionBlocks.0.choices.1.effects.0.nodes.1',
    code: 'unknown_name',
    message: 'The model stool.glb has no node "Backrst".',
    suggestions: ['Backrest'],
  },
];

interface Edit {
  data: typeof demoStool & { sceneData: any };
  label: string;
}

let browser: Browser;
let page: Page;
let bundle: string;

async function mount(tag: string, data: unknown = demoStool, warnings: unknown[] = []) {
  await page.setContent(
    '<!doctype html><html lang="en"><body style="font-family:system-ui;margin:1rem"></body></html>',
  );
  await page.addScriptTag({ content: bundle, type: 'module' });
  await page.waitForFunction(() => 'mountPanel' in globalThis);
  await page.evaluate(([t, d, o, w]) => (globalThis as any).mountPanel(t, d, o, w), [
    tag,
    data,
    OUTLINES,
    warnings,
  ] as const);
}

const edits = () => page.evaluate(() => (globalThis as any).edits as Edit[]);

async function screenshot(name: string) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

beforeAll(async () => {
  const built = await build({
    stdin: { contents: HARNESS, resolveDir: ROOT, loader: 'ts', sourcefile: 'harness.ts' },
    bundle: true,
    format: 'esm',
    write: false,
    target: 'es2022',
    tsconfig: `${ROOT}/demo/owner/tsconfig.json`,
  });
  bundle = built.outputFiles[0].text;
  browser = await launchSystemChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(8_000);
  page.on('dialog', (dialog) => void dialog.accept());
});

afterAll(async () => {
  await browser?.close();
});

describe('editor panels', () => {
  it('adds a block with a choice whose material effect names a node picked from the outline', async () => {
    await mount('editor-options-panel', demoStool, WARNINGS);
    await page.getByLabel('New block name').fill('Frame colour');
    await page.getByRole('button', { name: 'Add block' }).click();
    const block = page.getByRole('region', { name: 'Block Frame colour' });
    await block.getByLabel('New choice label').fill('Black');
    await block.getByRole('button', { name: 'Add choice' }).click();
    await block.getByLabel('Add an effect of type').selectOption('material');
    await block.getByRole('group', { name: 'Parts (nodes)' }).getByRole('checkbox', { name: 'Seat' }).check();

    await expect.poll(async () => (await edits()).length).toBe(4);
    const all = await edits();
    expect(all.map((edit) => edit.label)).toEqual([
      'Add block "Frame colour"',
      'Add choice "Black" to "Frame colour"',
      'Add a material effect of choice "Black"',
      'Set parts (nodes) (effect 1 of "Black")',
    ]);
    const data = all[3].data;
    expect(data.sceneData.optionBlocks[3]).toEqual({
      id: 'frame-colour',
      name: 'Frame colour',
      type: 'choice',
      choices: [{ id: 'black', label: 'Black', effects: [{ type: 'material', nodes: ['Seat'] }] }],
    });
    // Everything else is as it was, fields of other editors included.
    expect(data.sceneData.optionBlocks.slice(0, 3)).toEqual(demoStool.sceneData.optionBlocks);
    expect(data.models).toEqual(demoStool.models);
    await screenshot('options');
  });

  it('flags a typed name the outline lacks, names the rule of a bad price and shows warnings', async () => {
    await mount('editor-options-panel', demoStool, WARNINGS);
    const seat = page.getByRole('region', { name: 'Block Seat' });
    await seat.locator('summary', { hasText: 'Walnut' }).click();
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).selected))
      .toEqual([{ blockId: 'seat', choiceId: 'walnut' }]);
    await seat.getByText('Did you mean Backrest?').waitFor();

    const walnut = seat.getByRole('group', { name: 'Choice Walnut' });
    await walnut.getByLabel('Price').fill('forty');
    await walnut.getByLabel('Price').press('Tab');
    await expect
      .poll(() => seat.getByRole('alert').textContent())
      .toBe('Price must be a number between -1,000,000,000 and 1,000,000,000.');
    expect(await edits()).toEqual([]);

    await seat.getByLabel('Type a node name for Parts (nodes)').fill('Sit');
    await seat.getByLabel('Type a node name for Parts (nodes)').press('Enter');
    await seat.getByText('“Sit” is not a node of this model.').waitFor();
    const [edit] = await edits();
    expect(edit.data.sceneData.optionBlocks[0].choices[1].effects[0].nodes).toEqual(['Seat', 'Backrest', 'Sit']);
  });

  it('reorders blocks by buttons in one edit each', async () => {
    await mount('editor-options-panel');
    await page.getByRole('button', { name: 'Move block Legs up' }).click();
    const [edit] = await edits();
    expect(edit.label).toBe('Move block "Legs" up');
    expect(edit.data.sceneData.optionBlocks.map((b: { id: string }) => b.id)).toEqual(['legs', 'seat', 'backrest']);
  });

  it('exports the price list as CSV and imports a changed price back as one edit', async () => {
    await mount('editor-price-list');
    const href = await page.getByRole('link', { name: 'Download price list (CSV)' }).getAttribute('href');
    const csv = await page.evaluate(async (url) => {
      const bytes = await (await fetch(url!)).arrayBuffer();
      return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    }, href);
    expect(csv).toBe(
      '\uFEFFblockId,blockName,choiceId,label,price,sku\r\n' +
        'seat,Seat,oak,Oak,,\r\nseat,Seat,walnut,Walnut,40,\r\n' +
        'legs,Legs,steel,Steel,,\r\nlegs,Legs,brass,Brass,25,\r\n' +
        'backrest,Backrest,off,Off,,\r\nbackrest,Backrest,on,On,30,\r\n',
    );
    const changed = csv.replace('walnut,Walnut,40,', 'walnut,"Walnut, oiled",45.5,W-1') + 'legs,Legs,gold,Gold,99,\r\n';
    await page.getByLabel('Import a price list').setInputFiles({
      name: 'prices.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(changed),
    });
    await expect.poll(() => page.getByRole('status').textContent()).toContain('1 choice changed, 1 row not applied');
    await page.getByText('Row 8: No choice "gold" in block "legs".').waitFor();
    const all = await edits();
    expect(all).toHaveLength(1);
    expect(all[0].label).toBe('Import price list (1 choice)');
    expect(all[0].data.sceneData.optionBlocks[0].choices[1]).toEqual({
      ...demoStool.sceneData.optionBlocks[0].choices[1],
      label: 'Walnut, oiled',
      price: 45.5,
      sku: 'W-1',
    });
    await screenshot('price-list');
  });

  it('shows the price, form, animations and look panels with the stool', async () => {
    await mount('editor-price-panel');
    await page.getByText('Default price: €149.00').waitFor();
    await page.getByLabel('Tax rate (%)').fill('20');
    await page.getByLabel('Tax rate (%)').press('Tab');
    const [tax] = await edits();
    expect(tax.data.sceneData.projectSettings.pricing.tax).toEqual({ rate: 0.2, included: true, label: 'VAT' });
    await screenshot('price');

    await mount('editor-form-panel');
    await page.getByLabel('New field label').fill('Size');
    await page.getByLabel('New field type').selectOption('select');
    await page.getByRole('button', { name: 'Add field' }).click();
    const [field] = await edits();
    expect(field.data.sceneData.formFields[2]).toEqual({
      id: 'size',
      label: 'Size',
      type: 'select',
      options: [{ value: 'option-1', label: 'Option 1' }],
    });
    await screenshot('form');

    await mount('editor-animations-panel');
    expect(await page.getByRole('combobox', { name: 'Clip' }).inputValue()).toBe('Turn');
    await page.getByText('Lasts 2.0 s at speed 1.').waitFor();
    await page.getByLabel('Plays').selectOption('choice');
    await screenshot('animations');

    await mount('editor-look-panel', { ...demoStool, camera: { position: [1, 1, 2], target: [0, 0.4, 0] } });
    await page.getByRole('button', { name: 'Clear' }).last().click();
    const [view] = await edits();
    expect(view.data).not.toHaveProperty('camera');
    await screenshot('look');
  });

  it('edits the Look panel cart settings, refusing a cart address that is neither https: nor a path', async () => {
    await mount('editor-look-panel');
    const cart = page.getByRole('region', { name: 'Add to cart' });
    await cart.getByLabel('Show “Add to cart”').check();
    await cart.getByLabel('SKU base').fill('STOOL');
    await cart.getByLabel('SKU base').press('Tab');
    await cart.getByText('SKU of the default configuration: STOOL').waitFor();
    const address = cart.getByLabel('Cart address (action)');
    await address.fill('http://shop.example/cart');
    await address.press('Tab');
    await cart.getByRole('alert').getByText('an https:// address or a path').waitFor();
    expect(await address.getAttribute('aria-invalid')).toBe('true');
    expect(await edits()).toHaveLength(2);
    await screenshot('look-cart-invalid');
    await address.fill('/cart/add');
    await address.press('Tab');
    await expect.poll(async () => (await edits()).length).toBe(3);
    const all = await edits();
    expect(all.map((edit) => edit.label)).toEqual(['Change add to cart', 'Set SKU base', 'Set cart address']);
    expect(all[2].data.sceneData.projectSettings.cart).toEqual({
      enabled: true,
      skuBase: 'STOOL',
      action: '/cart/add',
    });
    expect(await address.getAttribute('aria-invalid')).toBe('false');
    await screenshot('look-cart');
  });
});
