import { demoStoolGlb } from './demo-model.js';

/**
 * The demo data of `npm start`, created once through the API like any client's, so a project the owner
 * changed or whose share they disabled later is left as it is.
 */
export const DEMO_OWNER_EMAIL = 'demo@example.com';
const DEMO_PROJECT_NAME = 'Demo stool';
/** Where the demo stool's cart button posts (the BFF's demo shop, bff/routes/demo/shop-cart.ts). */
const DEMO_CART_ACTION = '/demo/shop/cart';
/** The owner of the demo workspace whose billing is locked (the element's unavailable state). */
export const DEMO_LOCKED_OWNER_EMAIL = 'locked-demo@example.com';

export interface DemoProject {
  projectId: string;
  created: boolean;
  share: { isEnabled: boolean; shareToken: string } | null;
  notes: string[];
}

interface Api {
  <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

function apiClient(baseUrl: string, token: string): Api {
  // The answer's JSON is what this API documents for the path: trusted, not validated.
  return async <T>(method: string, path: string, body?: unknown) => {
    const isForm = body instanceof FormData;
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as T };
  };
}

type DemoModel = { id: string; fileName: string; assetId: string };

/**
 * The demo stool's configurator (docs/scene-format.md, The demo stool): one block per effect type the element applies,
 * so the demo shows each; effects name the parts of demo-model.ts.
 */
const configurator = (target: string | undefined) => ({
  optionBlocks: [
    {
      id: 'seat',
      name: 'Seat',
      type: 'swatch',
      targetObjectId: target,
      choices: [
        // The model's Oak material as drawn: its linear base colour written in sRGB, like every colour here.
        { id: 'oak', label: 'Oak', default: true, color: '#ceb390', sku: 'OAK' },
        {
          id: 'walnut',
          label: 'Walnut',
          price: 40,
          color: '#5a3a22',
          sku: 'WAL',
          effects: [{ type: 'material', nodes: ['Seat', 'Backrest'], color: '#5a3a22', roughness: 0.55 }],
        },
      ],
    },
    {
      id: 'legs',
      name: 'Legs',
      type: 'choice',
      targetObjectId: target,
      choices: [
        { id: 'steel', label: 'Steel', default: true, sku: 'STL', effects: [{ type: 'variant', name: 'steel' }] },
        { id: 'brass', label: 'Brass', price: 25, sku: 'BRS', effects: [{ type: 'variant', name: 'brass' }] },
      ],
    },
    {
      id: 'backrest',
      name: 'Backrest',
      type: 'toggle',
      targetObjectId: target,
      choices: [
        {
          id: 'off',
          label: 'Without backrest',
          default: true,
          effects: [{ type: 'visibility', nodes: ['Backrest'], visible: false }],
        },
        {
          id: 'on',
          label: 'With backrest',
          price: 30,
          sku: 'BR',
          effects: [{ type: 'visibility', nodes: ['Backrest'], visible: true }],
        },
      ],
    },
  ],
  formFields: [
    { id: 'name', label: 'Name', type: 'text', required: true },
    { id: 'email', label: 'E-mail', type: 'email', required: true },
    { id: 'quantity', label: 'Quantity', type: 'number', min: 1, max: 20, step: 1, default: 1 },
    { id: 'notes', label: 'Notes', type: 'textarea' },
  ],
  animationBlocks: [{ id: 'turn', name: 'Turn around', clip: 'Turn', trigger: 'button' }],
  pricingBlocks: [{ id: 'base', label: 'Base price', price: 149 }],
  pricingFormula: [{ op: 'multiply', field: 'quantity', label: 'Quantity' }],
});

/** A demo project's data: the stool (or `copies` of it in a grid) as a configurator; the bench uses it too. */
export const demoProjectData = (model: DemoModel | null, copies = 1) => ({
  // Copies stand in a grid, 0.6 m apart: 25 of them exercise the element's model-urls fallback
  // (only the first 20 models of a read carry a URL).
  models: model
    ? Array.from({ length: copies }, (_, i) => ({
        ...model,
        id: copies === 1 ? model.id : `${model.id}-${i + 1}`,
        position: [(i % 5) * 0.6 - (copies > 1 ? 1.2 : 0), 0, Math.floor(i / 5) * 0.6 - (copies > 1 ? 1.2 : 0)],
        rotation: [0, 0, 0],
        scale: [1, 1, 1],
        deletedParts: ['Footrest'],
      }))
    : [],
  sceneData: {
    projectSettings: {
      title: 'Demo stool',
      brandColor: '#3a6ea5',
      showPrices: true,
      pricing: { currency: 'EUR', tax: { rate: 0.19, included: true, label: 'VAT' } },
      emailAdminAddress: DEMO_OWNER_EMAIL,
      // The demo shop's cart (demo/shop/): the element posts the signed line to the BFF's demo cart route.
      cart: { enabled: true, label: 'Add to cart', skuBase: 'STOOL', quantity: true, action: DEMO_CART_ACTION },
    },
    // One model: its effects name it; copies (or none): every model, so each copy follows.
    ...configurator(model && copies === 1 ? model.id : undefined),
  },
  // Far enough back to see the whole grid when there are copies.
  camera:
    copies > 1
      ? { position: { x: 3.2, y: 2.6, z: 3.2 }, target: { x: 0, y: 0.2, z: 0 } }
      : { position: { x: 0.9, y: 0.8, z: 0.9 }, target: { x: 0, y: 0.25, z: 0 } },
  renderQuality: 'optimised',
  saveConfigEnabled: true,
});

async function uploadModel(api: Api, notes: string[]): Promise<DemoModel | null> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(await demoStoolGlb())], { type: 'model/gltf-binary' }), 'stool.glb');
  form.append('name', 'Demo stool');
  const res = await api<{ asset?: { id: string; fileName: string } }>('POST', '/assets', form);
  if (res.status !== 201 || !res.body?.asset) {
    notes.push(`the demo model upload answered ${res.status}; the demo project has no model`);
    return null;
  }
  return { id: 'stool', fileName: res.body.asset.fileName, assetId: res.body.asset.id };
}

async function findByName(api: Api, name: string): Promise<string | undefined> {
  let cursor: string | null = null;
  do {
    const page: { status: number; body: { projects: Array<{ id: string; name: string }>; nextCursor: string | null } } =
      await api('GET', `/projects?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (page.status !== 200) throw new Error(`GET /projects answered ${page.status}`);
    const found = page.body.projects.find((p) => p.name === name);
    if (found) return found.id;
    cursor = page.body.nextCursor;
  } while (cursor);
  return undefined;
}

/** One entry of the demo page's state switcher (written to demo/shares.json). */
export interface DemoShare {
  key: string;
  label: string;
  /** The state the element should reach with this share. */
  expect: 'ready' | 'password' | 'unavailable' | 'not-found';
  projectId: string;
  token: string;
  /** The password, for the QA person (password shares only). */
  password?: string;
}

/**
 * The other demo shares, restored to their state on every start so the demo page always works;
 * `lockedToken`: an owner token of a second workspace, whose billing the caller locks.
 */
export async function ensureDemoShares(
  apiUrl: string,
  ownerToken: string,
  lockedToken: string,
  plain: DemoProject,
): Promise<{ shares: DemoShare[]; notes: string[] }> {
  const api = apiClient(apiUrl, ownerToken);
  const notes: string[] = [];
  let model: DemoModel | null | undefined;
  const project = async (on: Api, name: string, copies = 1) => {
    const existing = await findByName(on, name);
    if (existing) return existing;
    model ??= on === api ? await uploadModel(on, notes) : null;
    const res = await on<{ project: { id: string } }>('POST', '/projects', {
      name,
      type: 'configurator',
      data: demoProjectData(on === api ? model : null, copies),
    });
    if (res.status !== 201)
      throw new Error(`creating the demo project "${name}" answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.project.id;
  };
  const putShare = async (on: Api, id: string, settings: Record<string, unknown>) => {
    const res = await on<{ settings: { shareToken: string } }>('PUT', `/projects/${id}/share`, {
      domainRestrictions: [],
      ...settings,
    });
    if (res.status !== 200) throw new Error(`setting the demo share of ${id} answered ${res.status}`);
    return res.body.settings.shareToken;
  };

  const shares: DemoShare[] = [];
  if (plain.share)
    shares.push({
      key: 'plain',
      label: 'Plain share',
      expect: 'ready',
      projectId: plain.projectId,
      token: plain.share.shareToken,
    });

  const protectedId = await project(api, 'Demo stool (password)');
  shares.push({
    key: 'password',
    label: 'Password (demo)',
    expect: 'password',
    projectId: protectedId,
    token: await putShare(api, protectedId, { isEnabled: true, requirePassword: true, password: 'demo' }),
    password: 'demo',
  });

  const shelfId = await project(api, 'Demo stools (25 models)', 25);
  shares.push({
    key: 'fallback',
    label: '25 models (model-urls fallback)',
    expect: 'ready',
    projectId: shelfId,
    token: await putShare(api, shelfId, { isEnabled: true }),
  });

  const disabledId = await project(api, 'Demo stool (disabled)');
  shares.push({
    key: 'disabled',
    label: 'Disabled share',
    expect: 'not-found',
    projectId: disabledId,
    token: await putShare(api, disabledId, { isEnabled: false }),
  });

  // The token the page uses is the one just replaced: rotated away.
  const rotatedId = await project(api, 'Demo stool (rotated token)');
  const oldToken = await putShare(api, rotatedId, { isEnabled: true });
  const rotated = await api('POST', `/projects/${rotatedId}/share/regenerate`);
  if (rotated.status !== 200) notes.push(`rotating the demo token answered ${rotated.status}`);
  shares.push({ key: 'rotated', label: 'Rotated token', expect: 'not-found', projectId: rotatedId, token: oldToken });

  const locked = apiClient(apiUrl, lockedToken);
  const lockedId = await project(locked, 'Demo stool (billing locked)');
  shares.push({
    key: 'locked',
    label: 'Owner billing locked',
    expect: 'unavailable',
    projectId: lockedId,
    token: await putShare(locked, lockedId, { isEnabled: true }),
  });
  return { shares, notes };
}

export async function ensureDemoProject(apiUrl: string, ownerToken: string): Promise<DemoProject> {
  const api = apiClient(apiUrl, ownerToken);
  const notes: string[] = [];
  let projectId = await findByName(api, DEMO_PROJECT_NAME);
  const created = !projectId;

  if (!projectId) {
    const model = await uploadModel(api, notes);
    const res = await api<{ project: { id: string } }>('POST', '/projects', {
      name: DEMO_PROJECT_NAME,
      type: 'configurator',
      data: demoProjectData(model),
    });
    if (res.status !== 201)
      throw new Error(`creating the demo project answered ${res.status}: ${JSON.stringify(res.body)}`);
    projectId = res.body.project.id;
    const share = await api('PUT', `/projects/${projectId}/share`, {
      isEnabled: true,
      requirePassword: false,
      domainRestrictions: [],
    });
    if (share.status !== 200) notes.push(`enabling the demo share answered ${share.status}`);
  }

  const settings = await api<{ settings?: { isEnabled: boolean; shareToken: string } }>(
    'GET',
    `/projects/${projectId}/share`,
  );
  const share = settings.status === 200 && settings.body?.settings ? settings.body.settings : null;
  if (!share) notes.push(`reading the demo share settings answered ${settings.status}`);
  return { projectId, created, share, notes };
}
