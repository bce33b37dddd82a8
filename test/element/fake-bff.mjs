import { createHash, randomUUID } from 'node:crypto';
import { Document, NodeIO } from '@gltf-transform/core';
import { boxGeometry } from './box-geometry.mjs';
import { answerDelivery } from './delivery-files.mjs';

/**
 * A fake BFF in web-test-runner's dev server answering the public routes as the real one does. The project id picks
 * the scenario (`<scenario>-<unique>`) so parallel tests never share answers, and `<scenario>.delivery-<unique>` signs
 * the models' delivery file (docs/delivery-files.md) instead of the original; `GET /fake/log?project=<id>` lists
 * calls, `GET /fake/release?project=<id>` lets the answers `heldpassword` holds go, `POST /fake/delivery` answers the
 * delivery file of the GLB it is sent (delivery-files.mjs).
 */

const TOKEN = 'tok';
export const PASSWORD = 'secret';
/** The share's revision: `stoolrevised` moves to revision 2 (walnut withdrawn) after its first read. */
const etagOf = (revision) => `"rev-${revision}"`;

/** A one-cube GLB, built at start-up (no binary fixture in the repository), its faces as exporters write them. */
async function cubeGlb() {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const { position, normal, uv, indices } = boxGeometry([0.5, 0.5, 0.5], 8);
  const accessor = (type, array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const material = doc.createMaterial('paint').setBaseColorFactor([0.8, 0.2, 0.1, 1]);
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', position))
    .setAttribute('NORMAL', accessor('VEC3', normal))
    .setAttribute('TEXCOORD_0', accessor('VEC2', uv))
    .setIndices(accessor('SCALAR', indices))
    .setMaterial(material);
  const mesh = doc.createMesh('cube').addPrimitive(primitive);
  const node = doc.createNode('cube').setMesh(mesh);
  doc.createScene().addChild(node);
  // `Turn`: one turn about Y in 2 s (the demo stool's clip), for the animation buttons.
  const times = doc
    .createAccessor()
    .setType('SCALAR')
    .setArray(new Float32Array([0, 1, 2]))
    .setBuffer(buffer);
  const turns = new Float32Array([0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, -1]);
  const rotations = doc.createAccessor().setType('VEC4').setArray(turns).setBuffer(buffer);
  const sampler = doc.createAnimationSampler().setInput(times).setOutput(rotations).setInterpolation('LINEAR');
  const channel = doc.createAnimationChannel().setTargetNode(node).setTargetPath('rotation').setSampler(sampler);
  doc.createAnimation('Turn').addSampler(sampler).addChannel(channel);
  return Buffer.from(await new NodeIO().writeBinary(doc));
}

const vec = (x, y, z) => ({ x, y, z });
const model = (id, url, x = 0) => ({
  id,
  fileName: `${id}.glb`,
  ...(url ? { url } : {}),
  assetId: `asset-${id}`,
  transform: {},
  position: vec(x, 0, 0),
  rotation: vec(0, 0, 0),
  scale: vec(1, 1, 1),
  partTransforms: {},
  deletedParts: [],
  pivotData: {},
});

const MODEL_URL = '/fake/model.glb';
/** The delivery file of the same cube (`<scenario>.delivery` projects). */
const DELIVERY_URL = '/fake/model.delivery.glb';
/** The largest GLB `POST /fake/delivery` takes. */
const DELIVERY_BODY_LIMIT = 16 * 1024 * 1024;
/** `many`: 25 models, the first 20 signed; model-urls knows m21-m23 and not m24, m25. */
const manyModels = () =>
  Array.from({ length: 25 }, (_, i) => model(`m${i + 1}`, i < 20 ? MODEL_URL : undefined, (i % 5) * 0.6));
const KNOWN_UNSIGNED = new Set(['m21', 'm22', 'm23']);

/** `stoolfinishes`: more seat swatches, with names long enough to wrap. */
const LONG_FINISHES = [
  { id: 'smoked', label: 'Smoked oak, hand-oiled', price: 65, color: '#6b5440' },
  { id: 'ash', label: 'Black-stained ash', price: 25, color: '#2b2b2b' },
  { id: 'whitewash', label: 'Whitewashed Scandinavian pine', color: '#e9e4d8' },
];

/**
 * `projectSettings.cart` of the cart scenarios (`stoolcart…`): `stoolcartpost` posts to another origin's cart,
 * `stoolcartone` has no stepper, `stoolcartoff` is switched off; the others answer the configurations route in
 * their own way (see `configurationAnswer`).
 */
function cartSettings(scenario) {
  if (!scenario.startsWith('stoolcart')) return {};
  const cart = { enabled: scenario !== 'stoolcartoff', label: 'Add to basket', skuBase: 'STOOL' };
  if (scenario === 'stoolcartpost') cart.action = 'https://shop.example/cart/add';
  if (scenario === 'stoolcartone') cart.quantity = false;
  return { cart };
}

/**
 * The demo stool (docs/scene-format.md) on the test cube (missing node names only warn), plus a `cushion` block for
 * hide rules. `stoolplain`: no currency, tax or save; `stoolhidden`: showPrices false; `stoolfinishes`: more swatches.
 */
function stoolProject(id, scenario) {
  const plain = scenario === 'stoolplain';
  return {
    id,
    name: 'Stool',
    type: 'configurator',
    data: {
      models: [model('stool', MODEL_URL)],
      sceneData: {
        optionBlocks: [
          {
            id: 'seat',
            name: 'Seat',
            type: 'swatch',
            targetObjectId: 'stool',
            choices: [
              { id: 'oak', label: 'Oak', default: true, color: '#c8a165' },
              {
                id: 'walnut',
                label: 'Walnut',
                price: 40,
                color: '#5b3a29',
                effects: [{ type: 'material', nodes: ['Seat', 'Backrest'], color: '#5b3a29', roughness: 0.6 }],
              },
              { id: 'plain', label: 'Plain', price: 10 },
              ...(scenario === 'stoolfinishes' ? LONG_FINISHES : []),
            ],
          },
          {
            id: 'legs',
            name: 'Legs',
            type: 'choice',
            targetObjectId: 'stool',
            choices: [
              { id: 'steel', label: 'Steel', default: true, effects: [{ type: 'variant', name: 'steel' }] },
              { id: 'brass', label: 'Brass', price: 25, effects: [{ type: 'variant', name: 'brass' }] },
            ],
            rules: [{ when: { seat: 'walnut' }, disable: ['steel'] }],
          },
          {
            id: 'backrest',
            name: 'Backrest',
            type: 'toggle',
            targetObjectId: 'stool',
            choices: [
              {
                id: 'off',
                label: 'Without',
                default: true,
                effects: [{ type: 'visibility', nodes: ['Backrest'], visible: false }],
              },
              {
                id: 'on',
                label: 'With',
                price: 30,
                effects: [{ type: 'visibility', nodes: ['Backrest'], visible: true }],
              },
            ],
          },
          {
            id: 'cushion',
            name: 'Cushion',
            choices: [
              { id: 'none', label: 'None', default: true },
              { id: 'linen', label: 'Linen' },
              { id: 'velvet', label: 'Velvet' },
            ],
            rules: [
              { when: { legs: 'brass' }, hide: ['velvet'] },
              { when: { seat: 'plain' }, hideBlock: true },
            ],
          },
        ],
        projectSettings: plain
          ? {}
          : {
              pricing: {
                currency: 'EUR',
                tax: { rate: 0.19, included: true, label: 'VAT' },
                ...(scenario === 'stoolhidden' ? { showPrices: false } : {}),
              },
              ...cartSettings(scenario),
            },
        formFields: [
          { id: 'name', label: 'Name', type: 'text', required: true },
          { id: 'email', label: 'E-mail', type: 'email', required: true },
          { id: 'quantity', label: 'Quantity', type: 'number', min: 1, max: 20, default: 1 },
        ],
        animationBlocks: [
          { id: 'turn', name: 'Turn around', clip: 'Turn', trigger: 'button' },
          { id: 'spin', name: 'Keep turning', clip: 'Turn', trigger: 'button', loop: 'repeat' },
        ],
        pricingBlocks: [{ id: 'base', label: 'Base price', price: 149 }],
        pricingFormula: [{ op: 'multiply', field: 'quantity', label: 'Quantity' }],
      },
      camera: { position: vec(1.2, 1, 1.2), target: vec(0, 0, 0) },
      renderQuality: 'low',
      saveConfigEnabled: !plain,
    },
  };
}

function project(id, scenario) {
  if (scenario.startsWith('stool')) return stoolProject(id, scenario);
  const models =
    scenario === 'many'
      ? manyModels()
      : scenario === 'broken'
        ? [model('cube', MODEL_URL), model('broken', '/fake/missing.glb', 0.6)]
        : scenario === 'pair'
          ? [model('left', MODEL_URL), model('right', MODEL_URL, 0.6)]
          : [model('cube', MODEL_URL)];
  return {
    id,
    name: `Project ${scenario}`,
    type: 'configurator',
    data: {
      models,
      sceneData: {
        optionBlocks: [
          {
            id: 'seat',
            name: 'Seat',
            targetObjectId: 'cube',
            choices: [
              { id: 'oak', label: 'Oak', price: 0 },
              { id: 'walnut', label: 'Walnut', price: 40 },
            ],
          },
        ],
        projectSettings: { title: 'Test' },
        formFields: [
          { id: 'name', label: 'Name', type: 'text', required: true },
          { id: 'email', label: 'E-mail', type: 'email', required: true },
          { id: 'quantity', label: 'Quantity', type: 'number', min: 1, max: 10 },
          { id: 'finish', label: 'Finish', type: 'select', options: ['Matte', 'Gloss'] },
          { id: 'terms', label: 'I accept the terms', type: 'checkbox' },
        ],
        animationBlocks: [],
        pricingBlocks: [],
        pricingFormula: [],
      },
      camera: { position: vec(1.2, 1, 1.2), target: vec(0, 0, 0) },
      renderQuality: scenario === 'many' ? 'low' : 'high',
      saveConfigEnabled: true,
    },
  };
}

/** The payload with its models' files signed at `url` (a delivery project's), where they were at MODEL_URL. */
function signedAt(payload, url) {
  if (url === MODEL_URL) return payload;
  const models = payload.data.models.map((each) => (each.url === MODEL_URL ? { ...each, url } : each));
  return { ...payload, data: { ...payload.data, models } };
}

/** The stool's second revision: the owner withdrew the walnut seat; everything else stands. */
function withoutWalnut(payload) {
  const revised = structuredClone(payload);
  const seat = revised.data.sceneData.optionBlocks.find((block) => block.id === 'seat');
  seat.choices = seat.choices.filter((choice) => choice.id !== 'walnut');
  return revised;
}

/** The request's body, or null when it is larger than `limit` bytes. */
async function readBytes(req, limit) {
  const chunks = [];
  let length = 0;
  for await (const chunk of req) {
    length += chunk.length;
    if (length > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}

const error = (ctx, status, code, extra = {}) => {
  ctx.status = status;
  ctx.body = { success: false, error: code, message: code, ...extra };
};

/** The stored configuration of a cart body, priced like the stool (€149 a unit) and named by a content hash. */
function storedConfiguration(projectId, body) {
  const { options, fields = {}, quantity = 1 } = body;
  const id = createHash('sha256')
    .update(JSON.stringify([projectId, 1, options, fields, quantity]))
    .digest('base64url')
    .slice(0, 22);
  const unit = 14_900;
  const now = Date.now();
  return {
    id,
    projectId,
    revision: 1,
    options,
    fields,
    quantity,
    price: { currency: 'EUR', decimals: 2, subtotal: unit, total: unit, lines: [], tax: null },
    total: unit * quantity,
    currency: 'EUR',
    sku: ['STOOL', ...Object.values(options)].join('-').toUpperCase(),
    summary: Object.entries(options)
      .map(([block, choice]) => `${block}: ${choice}`)
      .join('; '),
    imageUrl: body.screenshot ? '/fake/model.glb' : null,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 365 * 86_400_000).toISOString(),
  };
}

/**
 * `POST …/configurations` as the real route answers (docs/cart.md): `stoolcartbusy` is told to wait 2 s the first
 * time, `stoolcartdisabled` 403 `cart_disabled`, `stoolcartnokey` 503 `cart_not_configured`, `stoolcartbad` 400
 * naming `quantity`; every answer takes 300 ms, so the button's busy state can be seen.
 */
async function configurationAnswer(ctx, { projectId, scenario, entry, entries }, created) {
  await new Promise((resolve) => setTimeout(resolve, 300));
  const tries = entries.filter((e) => e.action === '/configurations').length;
  if (scenario === 'stoolcartbusy' && tries === 1) {
    ctx.set('retry-after', '2');
    return error(ctx, 429, 'rate_limited', { retryAfter: 2 });
  }
  if (scenario === 'stoolcartdisabled') return error(ctx, 403, 'cart_disabled');
  if (scenario === 'stoolcartnokey') return error(ctx, 503, 'cart_not_configured');
  const body = entry.body;
  if (scenario === 'stoolcartbad' || !body?.options || typeof body.options !== 'object')
    return error(ctx, 400, 'invalid_request', {
      message: 'quantity must be a whole number from 1 to 10000.',
      details: [{ field: 'body.quantity', message: 'must be a whole number from 1 to 10000' }],
    });
  const configuration = storedConfiguration(projectId, body);
  const again = created.has(configuration.id);
  created.add(configuration.id);
  ctx.status = again ? 200 : 201;
  ctx.body = { success: true, configuration, token: `token-for-${configuration.id}` };
}

/** The koa middleware. */
export async function fakeBff() {
  const glb = await cubeGlb();
  /** project id → requests, in order. */
  const log = new Map();
  /** project id:Idempotency-Key → requestId. */
  const requests = new Map();
  /** Configuration ids created so far: a repeat answers 200. */
  const created = new Set();
  /** project id → the answers `heldpassword` holds back until `GET /fake/release?project=<id>`. */
  const held = new Map();

  return async function fakeBffMiddleware(ctx, next) {
    if (ctx.path === MODEL_URL) {
      ctx.type = 'model/gltf-binary';
      ctx.body = glb;
      return;
    }
    if (ctx.path === DELIVERY_URL) return answerDelivery(ctx, glb);
    if (ctx.path === '/fake/delivery' && ctx.method === 'POST') {
      const sent = await readBytes(ctx.req, DELIVERY_BODY_LIMIT);
      if (!sent) return error(ctx, 413, 'payload_too_large', { message: `at most ${DELIVERY_BODY_LIMIT} bytes` });
      return answerDelivery(ctx, sent);
    }
    if (ctx.path === '/fake/log') {
      ctx.body = log.get(ctx.query.project) ?? [];
      return;
    }
    if (ctx.path === '/fake/release') {
      const waiting = held.get(ctx.query.project) ?? [];
      held.delete(ctx.query.project);
      waiting.forEach((release) => release());
      ctx.body = { released: waiting.length };
      return;
    }
    const match = /^\/share\/([^/]+)\/([^/]+)(\/model-urls|\/submit|\/events|\/configurations)?$/.exec(ctx.path);
    if (!match) return next();
    const [, projectId, token, action = ''] = match;
    const [scenario, file = 'original'] = projectId.split('-')[0].split('.');
    const modelUrl = file === 'delivery' ? DELIVERY_URL : MODEL_URL;
    const entries = log.get(projectId) ?? [];
    log.set(projectId, entries);
    const entry = {
      method: ctx.method,
      action,
      ifNoneMatch: ctx.get('if-none-match') || null,
      password: ctx.get('x-share-password') || null,
      idempotencyKey: ctx.get('idempotency-key') || null,
      contentType: ctx.get('content-type') || null,
      receivedAt: Date.now(),
      body: ctx.method === 'POST' ? await readJson(ctx.req) : null,
    };
    entries.push(entry);
    try {
      await answer(ctx, { projectId, token, action, scenario, modelUrl, entry, entries });
    } finally {
      entry.status = ctx.status;
    }
  };

  async function answer(ctx, { projectId, token, action, scenario, modelUrl, entry, entries }) {
    if (scenario === 'down') {
      // A network failure as the browser sees one: the connection closes without an answer.
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    if (token !== TOKEN || scenario === 'gone') return error(ctx, 404, 'not_found');
    if (scenario === 'refused') return error(ctx, 403, 'domain_not_allowed');
    if (scenario === 'locked') return error(ctx, 402, 'unavailable', { reason: 'owner_billing' });
    if (scenario === 'busy' && entries.length === 1) {
      ctx.set('retry-after', '1');
      return error(ctx, 429, 'rate_limited', { retryAfter: 1 });
    }
    if (scenario === 'password' || scenario === 'heldpassword') {
      if (!entry.password) return error(ctx, 401, 'password_required');
      // `heldpassword`: a wrong password is refused only once the test releases it, as a slow scrypt check would be.
      if (entry.password !== PASSWORD && scenario === 'heldpassword')
        await new Promise((resolve) => held.set(projectId, [...(held.get(projectId) ?? []), resolve]));
      if (entry.password !== PASSWORD) return error(ctx, 401, 'invalid_password');
    }
    const payload = signedAt(project(projectId, scenario), modelUrl);

    if (action === '/events') {
      // `stoolgone`: the events route refuses for good; `stoolbusy`: the first batch is told to wait 3 s.
      if (scenario === 'stoolgone') return error(ctx, 404, 'not_found');
      if (scenario === 'stoolbusy' && entries.filter((e) => e.action === '/events').length === 1) {
        ctx.set('retry-after', '3');
        return error(ctx, 429, 'rate_limited', { retryAfter: 3 });
      }
      const events = Array.isArray(entry.body?.events) ? entry.body.events : [];
      ctx.status = 202;
      ctx.body = { success: true, accepted: events.length, rejected: [] };
      return;
    }

    if (action === '/configurations') return configurationAnswer(ctx, { projectId, scenario, entry, entries }, created);

    if (action === '/model-urls') {
      const ids = entry.body?.modelIds;
      if (!Array.isArray(ids) || ids.length < 1 || ids.length > 20) return error(ctx, 400, 'invalid_request');
      const known = new Set(payload.data.models.filter((m) => m.url || KNOWN_UNSIGNED.has(m.id)).map((m) => m.id));
      ctx.body = {
        success: true,
        urls: Object.fromEntries(ids.filter((id) => known.has(id)).map((id) => [id, modelUrl])),
      };
      return;
    }
    if (action === '/submit') {
      // Slow enough that a double click lands while the first request is still open.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const formData = entry.body?.formData;
      if (!formData || typeof formData !== 'object')
        return error(ctx, 400, 'invalid_request', { details: [{ field: 'body.formData', message: 'is required' }] });
      // An address the element cannot judge (the server's own rule): only the server's details show it.
      if (scenario === 'strict' && String(formData.email ?? '').endsWith('.invalid')) {
        return error(ctx, 400, 'invalid_request', {
          details: [{ field: 'body.formData.email', message: 'must be an e-mail address' }],
        });
      }
      const key = `${projectId}:${entry.idempotencyKey}`;
      const requestId = (entry.idempotencyKey && requests.get(key)) || randomUUID();
      if (entry.idempotencyKey) requests.set(key, requestId);
      ctx.body = { success: true, requestId };
      return;
    }
    const revision = scenario === 'stoolrevised' && entries.filter((e) => e.action === '').length > 1 ? 2 : 1;
    const etag = etagOf(revision);
    ctx.set('etag', etag);
    ctx.set('cache-control', scenario.endsWith('password') ? 'private, no-cache' : 'no-cache');
    if (entry.ifNoneMatch === etag) {
      ctx.status = 304;
      return;
    }
    ctx.body = { success: true, project: revision === 2 ? withoutWalnut(payload) : payload };
  }
}
