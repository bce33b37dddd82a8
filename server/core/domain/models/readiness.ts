import type { Document, Node, Primitive } from '@gltf-transform/core';
import type { ImportReadiness } from '../../wire/libraries.js';
import { SceneBox } from './scene-box.js';

/**
 * Configurator Readiness (docs/libraries.md, Imports): ten weighted checks scored out of 100. A model that
 * cannot be read is scored on what the validator told, with a notice.
 */
export interface ModelMetrics {
  triangles: number;
  drawCalls: number;
  /** Largest bounding box side, in model units (metres by the glTF spec). */
  extent: number | null;
  /** Whether the model stands on its base at the origin. */
  pivotAtBase: boolean | null;
  textureCount: number;
  maxTextureSide: number;
  potShare: number;
  /** Estimated GPU memory of all textures, with mipmaps, in bytes. */
  textureGpuBytes: number;
  materialCount: number;
  specGloss: boolean;
  meshNodes: number;
  wellNamedShare: number;
  hygiene: string[];
}

/** The checks and score as import jobs answer them (the wire shape), and what scoring adds. */
type WireCheck = ImportReadiness['checks'][number];
export type CheckStatus = WireCheck['status'];

export interface ReadinessCheck extends WireCheck {
  points: number;
  maxPoints: number;
}

export interface ReadinessReport extends ImportReadiness {
  checks: ReadinessCheck[];
  notices: string[];
}

const GENERIC_NAME = /^(object|mesh|node|group|geometry|polysurface|cube|sphere|plane|cylinder)?[\s_.-]*\d*$/i;
const CDN_DECODER_EXTENSIONS = ['KHR_draco_mesh_compression', 'EXT_meshopt_compression', 'KHR_texture_basisu'];

function triangleCount(prim: Primitive): number {
  const count = prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')?.getCount() ?? 0;
  const mode = prim.getMode();
  if (mode === 4) return Math.floor(count / 3);
  if (mode === 5 || mode === 6) return Math.max(0, count - 2);
  return 0;
}

/**
 * World-space bounds from each accessor's POSITION box moved by the node's matrix: per primitive
 * rather than glTF-Transform's getBounds, which walks every vertex.
 */
function sceneBounds(nodes: Node[]): { min: number[]; max: number[] } {
  const box = new SceneBox();
  for (const node of nodes) {
    const m = node.getWorldMatrix();
    for (const prim of node.getMesh()!.listPrimitives()) {
      const position = prim.getAttribute('POSITION');
      if (position) box.add(m, position.getMin([]), position.getMax([]));
    }
  }
  return box;
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/** What the checks need, walked over the default scene's nodes (instances counted, as rendered). */
export function measureDocument(doc: Document): ModelMetrics {
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  let triangles = 0;
  let drawCalls = 0;
  let texturedWithoutUv = 0;
  const meshNodeNames: string[] = [];
  const meshNodes: Node[] = [];
  scene?.traverse((node) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    meshNodes.push(node);
    meshNodeNames.push(node.getName());
    for (const prim of mesh.listPrimitives()) {
      triangles += triangleCount(prim);
      drawCalls += 1;
      if (prim.getMaterial()?.getBaseColorTexture() && !prim.getAttribute('TEXCOORD_0')) texturedWithoutUv += 1;
    }
  });

  let extent: number | null = null;
  let pivotAtBase: boolean | null = null;
  if (scene && drawCalls > 0) {
    const { min, max } = sceneBounds(meshNodes);
    const size = [max[0] - min[0], max[1] - min[1], max[2] - min[2]];
    if (size.every(Number.isFinite)) {
      extent = Math.max(...size);
      const height = size[1] || 1;
      const centreX = (max[0] + min[0]) / 2;
      const centreZ = (max[2] + min[2]) / 2;
      pivotAtBase =
        Math.abs(min[1]) <= 0.01 * height &&
        Math.abs(centreX) <= 0.05 * (extent || 1) &&
        Math.abs(centreZ) <= 0.05 * (extent || 1);
    }
  }

  const textures = root.listTextures();
  let maxSide = 0;
  let pot = 0;
  let gpu = 0;
  for (const texture of textures) {
    const size = texture.getSize();
    if (!size) continue;
    const [w, h] = size;
    maxSide = Math.max(maxSide, w, h);
    if (isPowerOfTwo(w) && isPowerOfTwo(h)) pot += 1;
    gpu += w * h * 4 * (4 / 3);
  }

  const names = meshNodeNames.map((n) => n.trim());
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  const wellNamed = names.filter((n) => n !== '' && !GENERIC_NAME.test(n) && counts.get(n) === 1).length;

  const extensions = root.listExtensionsUsed().map((e) => e.extensionName);
  const required = root.listExtensionsRequired().map((e) => e.extensionName);
  const hygiene: string[] = [];
  if (!root.getDefaultScene()) hygiene.push('no default scene is set');
  if (root.listScenes().length > 1) hygiene.push(`${root.listScenes().length} scenes instead of one`);
  if (extensions.includes('KHR_lights_punctual')) hygiene.push('the model carries lights');
  if (root.listCameras().length > 0) hygiene.push('the model carries cameras');
  if (texturedWithoutUv > 0) hygiene.push(`${texturedWithoutUv} textured part(s) without UVs`);
  const cdn = required.filter((e) => CDN_DECODER_EXTENSIONS.includes(e));
  if (cdn.length > 0) hygiene.push(`viewers need a decoder from a CDN (${cdn.join(', ')})`);

  return {
    triangles,
    drawCalls,
    extent,
    pivotAtBase,
    textureCount: textures.length,
    maxTextureSide: maxSide,
    potShare: textures.length ? pot / textures.length : 1,
    textureGpuBytes: Math.round(gpu),
    materialCount: root.listMaterials().length,
    specGloss: extensions.includes('KHR_materials_pbrSpecularGlossiness'),
    meshNodes: names.length,
    wellNamedShare: names.length ? wellNamed / names.length : 1,
    hygiene,
  };
}

const MB = 1_000_000;

function check(
  id: string,
  label: string,
  points: number,
  maxPoints: number,
  value: ReadinessCheck['value'],
  limit: ReadinessCheck['limit'],
  message: string,
): ReadinessCheck {
  const status: CheckStatus = points >= maxPoints ? 'pass' : points > 0 || maxPoints <= 5 ? 'warn' : 'fail';
  return { id, label, status, value, limit, message, points: Math.round(points * 10) / 10, maxPoints };
}

/**
 * Scores a model. `info` is the validator's summary (numWarnings, totalTriangleCount...), used
 * for validity and as a fallback when `metrics` is null (a model glTF-Transform could not read).
 */
export function readinessReport(
  metrics: ModelMetrics | null,
  info: Record<string, unknown>,
  glbBytes: number,
): ReadinessReport {
  const checks: ReadinessCheck[] = [];
  const blockers: string[] = [];
  const warnings = Number(info.numWarnings ?? 0);
  checks.push(
    check(
      'validity',
      'Spec validity',
      warnings === 0 ? 15 : 10,
      15,
      warnings,
      0,
      warnings === 0
        ? 'The Khronos validator found no errors and no warnings.'
        : `The Khronos validator found ${warnings} warning(s).`,
    ),
  );

  const triangles = metrics?.triangles ?? Number(info.totalTriangleCount ?? 0);
  const triPoints = triangles <= 100_000 ? 15 : triangles <= 150_000 ? 10 : triangles <= 250_000 ? 5 : 0;
  if (triangles > 500_000) blockers.push('triangles');
  checks.push(
    check(
      'triangles',
      'Triangles',
      triPoints,
      15,
      triangles,
      100_000,
      triPoints === 15
        ? `${triangles} triangles: light enough for mobile web.`
        : `${triangles} triangles: above the 100,000 guideline; simplify the mesh` +
            `${triangles > 500_000 ? ' (over 500,000 is too heavy for a configurator)' : ''}.`,
    ),
  );

  const sizePoints = glbBytes <= 5 * MB ? 10 : glbBytes <= 15 * MB ? 6 : glbBytes <= 30 * MB ? 2 : 0;
  checks.push(
    check(
      'size',
      'File size',
      sizePoints,
      10,
      glbBytes,
      5 * MB,
      sizePoints === 10
        ? 'The GLB is under 5 MB.'
        : `The GLB is ${(glbBytes / MB).toFixed(1)} MB; under 5 MB loads fast on phones (compress textures).`,
    ),
  );

  if (metrics) {
    const side = metrics.maxTextureSide;
    const sidePoints = side <= 2048 ? 8 : side <= 4096 ? 3 : 0;
    const gpuPoints =
      metrics.textureGpuBytes <= 64 * 1024 * 1024 ? 3 : metrics.textureGpuBytes <= 128 * 1024 * 1024 ? 1 : 0;
    const texPoints = sidePoints + 4 * metrics.potShare + gpuPoints;
    checks.push(
      check(
        'textures',
        'Textures',
        texPoints,
        15,
        metrics.textureCount ? `${metrics.textureCount} texture(s), largest ${side}px` : 'none',
        '2048px, power of two',
        texPoints >= 15
          ? 'Texture sizes suit the web.'
          : `Largest texture ${side}px, ${Math.round(metrics.potShare * 100)}% power-of-two; ` +
              'aim for 2048px or less, powers of two.',
      ),
    );

    const matPoints =
      (metrics.specGloss ? 0 : 5) + (metrics.materialCount <= 10 ? 5 : metrics.materialCount <= 25 ? 2 : 0);
    checks.push(
      check(
        'materials',
        'Materials',
        matPoints,
        10,
        metrics.materialCount,
        10,
        matPoints >= 10
          ? `${metrics.materialCount} metal-rough PBR material(s).`
          : `${metrics.materialCount} material(s)` +
              `${metrics.specGloss ? ', some specular-glossiness (not metal-rough PBR)' : ''}; ` +
              'fewer, reused materials render faster.',
      ),
    );

    const dcPoints = metrics.drawCalls <= 100 ? 10 : metrics.drawCalls <= 500 ? 5 : 0;
    checks.push(
      check(
        'draw-calls',
        'Draw calls',
        dcPoints,
        10,
        metrics.drawCalls,
        100,
        dcPoints === 10
          ? `${metrics.drawCalls} draw call(s).`
          : `${metrics.drawCalls} draw calls; merge parts that never change to stay under 100.`,
      ),
    );

    const extent = metrics.extent;
    const scalePoints =
      extent === null
        ? 0
        : extent >= 0.02 && extent <= 10
          ? 10
          : (extent >= 0.005 && extent < 0.02) || (extent > 10 && extent <= 50)
            ? 4
            : 0;
    checks.push(
      check(
        'scale',
        'Real-world scale',
        scalePoints,
        10,
        extent === null ? null : Math.round(extent * 1000) / 1000,
        '0.02–10 m',
        scalePoints === 10
          ? `Largest side ${extent!.toFixed(2)} m: plausible.`
          : `Largest side ${extent === null ? 'unknown' : `${extent.toFixed(2)} units`}: ` +
              'probably not in metres (1 unit = 1 m).',
      ),
    );

    checks.push(
      check(
        'pivot',
        'Pivot at base',
        metrics.pivotAtBase ? 5 : 2,
        5,
        metrics.pivotAtBase ? 'yes' : 'no',
        'bottom centre at 0,0,0',
        metrics.pivotAtBase
          ? 'The model stands on the origin.'
          : 'The model does not stand on the origin (bottom centre at 0,0,0 places it on the floor).',
      ),
    );

    const namePoints = metrics.wellNamedShare >= 0.8 ? 5 : 5 * metrics.wellNamedShare;
    checks.push(
      check(
        'naming',
        'Part names',
        namePoints,
        5,
        `${Math.round(metrics.wellNamedShare * 100)}%`,
        '80%',
        namePoints >= 5
          ? 'Parts have unique, meaningful names.'
          : 'Many parts have generic or duplicate names (Object_12, mesh_0): option blocks address parts by name.',
      ),
    );

    const hygienePoints = Math.max(0, 5 - metrics.hygiene.length);
    checks.push(
      check(
        'hygiene',
        'Scene hygiene',
        hygienePoints,
        5,
        metrics.hygiene.length,
        0,
        metrics.hygiene.length === 0
          ? 'One default scene, no lights or cameras.'
          : `Clean up: ${metrics.hygiene.join('; ')}.`,
      ),
    );
  } else {
    for (const [id, label, max] of [
      ['textures', 'Textures', 15],
      ['materials', 'Materials', 10],
      ['draw-calls', 'Draw calls', 10],
      ['scale', 'Real-world scale', 10],
      ['pivot', 'Pivot at base', 5],
      ['naming', 'Part names', 5],
      ['hygiene', 'Scene hygiene', 5],
    ] as const) {
      checks.push({
        id,
        label,
        status: 'warn',
        value: null,
        limit: null,
        message: 'Not measured: the model uses a compression this server cannot decode.',
        points: 0,
        maxPoints: max,
      });
    }
  }

  const score = Math.round(checks.reduce((sum, c) => sum + c.points, 0));
  const validityPoints = checks[0].points;
  const level: ReadinessReport['level'] =
    blockers.length > 0 || score < 50 ? 'not-ready' : score < 80 || validityPoints < 15 ? 'needs-work' : 'ready';
  const notices = checks.filter((c) => c.status !== 'pass').map((c) => `${c.label}: ${c.message}`);
  return { score, level, checks, notices };
}
