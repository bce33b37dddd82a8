import { demoStoolGlb } from './demo-model.js';

/**
 * The demo data of `npm start`, created through the API like any client would, and only once:
 * a project named {@link DEMO_PROJECT_NAME} in the demo owner's workspace, with sharing enabled.
 * A project the owner changed or whose share they disabled later is left as it is.
 */
export const DEMO_OWNER_EMAIL = 'demo@example.com';
export const DEMO_PROJECT_NAME = 'Demo stool';

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
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as T };
  };
}

const scene = (model: { id: string; fileName: string; assetId: string } | null) => ({
  models: model ? [{ ...model, position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1] }] : [],
  sceneData: {
    projectSettings: { title: 'Demo stool', brandColor: '#3a6ea5', showPrices: true, currency: 'EUR', emailAdminAddress: DEMO_OWNER_EMAIL },
    optionBlocks: [
      { id: 'seat', name: 'Seat', targetObjectId: 'stool', choices: [{ id: 'oak', label: 'Oak', price: 0 }, { id: 'walnut', label: 'Walnut', price: 40 }] },
      { id: 'legs', name: 'Legs', targetObjectId: 'stool', choices: [{ id: 'steel', label: 'Steel', price: 0 }, { id: 'brass', label: 'Brass', price: 25 }] },
    ],
    formFields: [
      { id: 'name', label: 'Name', type: 'text', required: true },
      { id: 'email', label: 'E-mail', type: 'email', required: true },
      { id: 'quantity', label: 'Quantity', type: 'number' },
      { id: 'notes', label: 'Notes', type: 'textarea' },
    ],
    animationBlocks: [],
    pricingBlocks: [{ id: 'base', label: 'Base price', price: 149 }],
    pricingFormula: [],
  },
  camera: { position: { x: 0.9, y: 0.8, z: 0.9 }, target: { x: 0, y: 0.25, z: 0 } },
  renderQuality: 'optimised',
  saveConfigEnabled: true,
});

async function uploadModel(api: Api, notes: string[]) {
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
    const page: { status: number; body: { projects: Array<{ id: string; name: string }>; nextCursor: string | null } } = await api(
      'GET',
      `/projects?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (page.status !== 200) throw new Error(`GET /projects answered ${page.status}`);
    const found = page.body.projects.find((p) => p.name === name);
    if (found) return found.id;
    cursor = page.body.nextCursor;
  } while (cursor);
  return undefined;
}

export async function ensureDemoProject(apiUrl: string, ownerToken: string): Promise<DemoProject> {
  const api = apiClient(apiUrl, ownerToken);
  const notes: string[] = [];
  let projectId = await findByName(api, DEMO_PROJECT_NAME);
  const created = !projectId;

  if (!projectId) {
    const model = await uploadModel(api, notes);
    const res = await api<{ project: { id: string } }>('POST', '/projects', { name: DEMO_PROJECT_NAME, type: 'configurator', data: scene(model) });
    if (res.status !== 201) throw new Error(`creating the demo project answered ${res.status}: ${JSON.stringify(res.body)}`);
    projectId = res.body.project.id;
    const share = await api('PUT', `/projects/${projectId}/share`, { isEnabled: true, requirePassword: false, domainRestrictions: [] });
    if (share.status !== 200) notes.push(`enabling the demo share answered ${share.status}`);
  }

  const settings = await api<{ settings?: { isEnabled: boolean; shareToken: string } }>('GET', `/projects/${projectId}/share`);
  const share = settings.status === 200 && settings.body?.settings ? settings.body.settings : null;
  if (!share) notes.push(`reading the demo share settings answered ${settings.status}`);
  return { projectId, created, share, notes };
}
