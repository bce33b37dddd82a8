import { Logger, NodeIO, PropertyType, type Document } from '@gltf-transform/core';
import { ALL_EXTENSIONS, EXTMeshoptCompression, EXTTextureWebP, KHRMeshQuantization } from '@gltf-transform/extensions';
import { compressTexture, dedup, prune, quantize, reorder, resample, weld } from '@gltf-transform/functions';
import { ready as resamplerReady, resample as resampleWasm } from 'keyframe-resample';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import sharp from 'sharp';
import { glbOutline } from './model-outline.js';
import { ModelFileError } from './model-file-error.js';
import { quantizeUnitPositions } from './quantize-unit-positions.js';
import { outlineDiagonal, outlineDifference } from './outline-difference.js';
import { validateGltf } from './validate-gltf.js';

/**
 * The delivery file (docs/delivery-files.md): the GLB shoppers download, made from a stored asset with glTF-Transform.
 * Every name, the hierarchy and every node's transform stay as they are, so scenes and effects address it as the
 * original; it is kept only when the validator passes it, its outline equals the original's and it is smaller.
 */

/** The largest texture side in a delivery file, in px: what phones draw without trouble. */
const DELIVERY_TEXTURE_SIDE = 2048;

export interface DeliveryFigures {
  originalBytes: number;
  sizeBytes: number;
  /** Bytes of every texture image, before and after. */
  textureBytes: { before: number; after: number };
  /** Textures re-encoded as WebP, and those scaled down to DELIVERY_TEXTURE_SIDE. */
  webpTextures: number;
  resizedTextures: number;
}

export type DeliveryOutcome =
  | { kind: 'ready'; glb: Uint8Array; figures: DeliveryFigures }
  | { kind: 'skipped'; reason: string; figures: Pick<DeliveryFigures, 'originalBytes'> & Partial<DeliveryFigures> };

const TEXTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
/** Extensions whose data glTF-Transform reads only with a decoder this product does not carry. */
const UNREADABLE = ['KHR_draco_mesh_compression', 'KHR_texture_basisu'];
/**
 * Quantized here: not POSITION, whose quantization would move node transforms (quantize-unit-positions.ts), and not
 * normals and tangents, which meshopt's octahedral filter writes as 8-bit integers.
 */
const QUANTIZED_ATTRIBUTES = /^(TEXCOORD_\d+|COLOR_\d+|JOINTS_\d+|WEIGHTS_\d+)$/;
/** Morph targets have no filter: their normals are quantized too. */
const QUANTIZED_TARGETS = /^(NORMAL|TANGENT|TEXCOORD_\d+|COLOR_\d+)$/;

/** What pruning keeps: empty nodes, UVs a texture effect may need, indices, solid textures and extras. */
const KEEP = { keepLeaves: true, keepAttributes: true, keepIndices: true, keepSolidTextures: true, keepExtras: true };

async function deliveryIo(): Promise<NodeIO> {
  await Promise.all([MeshoptDecoder.ready, MeshoptEncoder.ready, resamplerReady]);
  return new NodeIO()
    .setLogger(new Logger(Logger.Verbosity.ERROR))
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({ 'meshopt.decoder': MeshoptDecoder, 'meshopt.encoder': MeshoptEncoder });
}

/**
 * Each texture as WebP when that is smaller, scaled down to at most DELIVERY_TEXTURE_SIDE px; otherwise in its own
 * format (scaled down when too large). Textures in other formats (KTX2) stay as they are.
 */
async function compressTextures(
  doc: Document,
): Promise<DeliveryFigures['textureBytes'] & { webp: number; resized: number }> {
  const figures = { before: 0, after: 0, webp: 0, resized: 0 };
  await Promise.all(
    doc
      .getRoot()
      .listTextures()
      .map(async (texture) => {
        const original = { image: texture.getImage(), mimeType: texture.getMimeType(), uri: texture.getURI() };
        const size = texture.getSize();
        if (!original.image) return;
        figures.before += original.image.byteLength;
        if (!size || !TEXTURE_TYPES.includes(original.mimeType)) {
          figures.after += original.image.byteLength;
          return;
        }
        const tooLarge = Math.max(...size) > DELIVERY_TEXTURE_SIDE;
        const resize = tooLarge ? ([DELIVERY_TEXTURE_SIDE, DELIVERY_TEXTURE_SIDE] as [number, number]) : undefined;
        await compressTexture(texture, { encoder: sharp, targetFormat: 'webp', resize });
        if (texture.getImage()!.byteLength >= original.image.byteLength) {
          texture.setImage(original.image).setMimeType(original.mimeType).setURI(original.uri);
          if (resize) await compressTexture(texture, { encoder: sharp, resize });
        }
        if (texture.getMimeType() === 'image/webp' && original.mimeType !== 'image/webp') figures.webp += 1;
        if (tooLarge) figures.resized += 1;
        figures.after += texture.getImage()!.byteLength;
      }),
  );
  const webp = doc.createExtension(EXTTextureWebP);
  if (
    doc
      .getRoot()
      .listTextures()
      .some((texture) => texture.getMimeType() === 'image/webp')
  )
    webp.setRequired(true);
  else webp.dispose();
  return figures;
}

/** The steps of docs/delivery-files.md, in order, on a document read from the stored GLB. */
async function optimize(doc: Document, sceneDiagonal: number) {
  await doc.transform(
    // Materials are left out: two with the same look but different names are two choices to an owner.
    dedup({ propertyTypes: [PropertyType.ACCESSOR, PropertyType.MESH, PropertyType.TEXTURE], keepUniqueNames: true }),
    weld(),
    resample({ ready: resamplerReady, resample: resampleWasm, cleanup: false }),
    // Nodes, materials and animations are never pruned: an owner may address any of them, used or not.
    prune({
      ...KEEP,
      propertyTypes: [PropertyType.ACCESSOR, PropertyType.BUFFER, PropertyType.MESH, PropertyType.TEXTURE],
    }),
  );
  const textures = await compressTextures(doc);
  await doc.transform(
    reorder({ encoder: MeshoptEncoder, target: 'size' }),
    quantize({ pattern: QUANTIZED_ATTRIBUTES, patternTargets: QUANTIZED_TARGETS, quantizeNormal: 8, cleanup: false }),
    quantizeUnitPositions(sceneDiagonal),
    // Quantizing writes new accessors: equal ones become one, and the float ones they replace go.
    dedup({ propertyTypes: [PropertyType.ACCESSOR] }),
    prune({ ...KEEP, propertyTypes: [PropertyType.ACCESSOR] }),
  );
  doc
    .createExtension(EXTMeshoptCompression)
    .setRequired(true)
    .setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.FILTER });
  // The filter writes normals and tangents as normalized integers, which KHR_mesh_quantization allows.
  const filtered = doc
    .getRoot()
    .listMeshes()
    .some((mesh) => mesh.listPrimitives().some((p) => p.getAttribute('NORMAL') || p.getAttribute('TANGENT')));
  if (filtered) doc.createExtension(KHRMeshQuantization).setRequired(true);
  return textures;
}

/**
 * Makes the delivery file of a stored (already validated) GLB. Pure: bytes in, an outcome out. A file glTF-Transform
 * cannot read or write throws; every reason to serve the original instead is a `skipped` outcome.
 */
export async function makeDeliveryFile(
  original: Uint8Array,
  options: { validatorErrorCodes: readonly string[] },
): Promise<DeliveryOutcome> {
  const originalBytes = original.byteLength;
  const io = await deliveryIo();
  const stored = await io.binaryToJSON(original);
  const unreadable = (stored.json.extensionsUsed ?? []).filter((name) => UNREADABLE.includes(name));
  if (unreadable.length > 0)
    return {
      kind: 'skipped',
      reason: `it uses ${unreadable.join(' and ')}, served as uploaded`,
      figures: { originalBytes },
    };

  const originalOutline = await glbOutline(original);
  const doc = await io.readJSON(stored);
  const textures = await optimize(doc, outlineDiagonal(originalOutline));
  const glb = await io.writeBinary(doc);
  const figures: DeliveryFigures = {
    originalBytes,
    sizeBytes: glb.byteLength,
    textureBytes: { before: textures.before, after: textures.after },
    webpTextures: textures.webp,
    resizedTextures: textures.resized,
  };
  if (glb.byteLength >= originalBytes)
    return { kind: 'skipped', reason: 'it is not smaller than the original', figures };

  const difference = outlineDifference(originalOutline, await glbOutline(glb));
  if (difference)
    return { kind: 'skipped', reason: `its outline differs from the original's (${difference})`, figures };
  try {
    await validateGltf(glb, { format: 'glb', uri: 'delivery.glb' }, new Map(), {
      maxReportedIssues: 3,
      validatorErrorCodes: options.validatorErrorCodes,
    });
  } catch (error) {
    if (!(error instanceof ModelFileError)) throw error;
    return { kind: 'skipped', reason: `the Khronos validator refused it: ${error.message}`, figures };
  }
  return { kind: 'ready', glb, figures };
}
