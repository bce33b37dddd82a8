import { Document, Format, NodeIO, type JSONDocument } from '@gltf-transform/core';
import {
  ALL_EXTENSIONS,
  EXTTextureWebP,
  KHRLightsPunctual,
  KHRMaterialsAnisotropy,
  KHRMaterialsClearcoat,
  KHRMaterialsVariants,
  KHRMeshQuantization,
  KHRTextureTransform,
} from '@gltf-transform/extensions';
import { strToU8, zipSync } from 'fflate';
import sharp from 'sharp';
import { embedResources, jsonBytes, makePng } from './model-fixtures.js';

/**
 * glTF models for the upload checks, one per class of model real exporters write, plus files the validator refuses.
 * Whether a case is valid is for the Khronos validator to say, not this file.
 */
export interface CorpusCase {
  /** What the case covers. */
  title: string;
  /** The name the file is uploaded under: `.gltf` for a lone file, `.zip` for a `.gltf` with its resources. */
  fileName: string;
  /** The `.gltf` file's name among `files`. */
  entry: string;
  /** The `.gltf` and its resources, keyed by their URI. */
  files: Record<string, Uint8Array>;
}

/** The bytes to upload: the lone `.gltf`, or all files zipped together. */
export function uploadBytes(c: CorpusCase): Uint8Array {
  return c.fileName.endsWith('.zip') ? zipSync(c.files) : c.files[c.entry];
}

const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
type GltfJson = Record<string, unknown> & {
  accessors: Array<Record<string, unknown>>;
  extensionsUsed?: string[];
};

/** A unit quad facing +Z: 4 vertices, 2 triangles, with normals, tangents and UVs. */
function quad(doc: Document, buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer()) {
  const accessor = (type: 'VEC4' | 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  return doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0])))
    .setAttribute('NORMAL', accessor('VEC3', new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])))
    .setAttribute('TANGENT', accessor('VEC4', new Float32Array([1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1])))
    .setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array([0, 1, 1, 1, 1, 0, 0, 0])))
    .setIndices(accessor('SCALAR', new Uint16Array([0, 1, 2, 0, 2, 3])));
}

/** A document whose one scene shows `primitive` on a node named `name`; returns the node too. */
function sceneWith(doc: Document, primitive: ReturnType<typeof quad>, name = 'Part') {
  const node = doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive));
  doc.getRoot().setDefaultScene(doc.createScene('Scene').addChild(node));
  return node;
}

/** A textured material (a PNG at `textures/<name>.png`). */
function texturedMaterial(doc: Document, name = 'wood') {
  const texture = doc.createTexture(name).setImage(makePng()).setMimeType('image/png').setURI(`textures/${name}.png`);
  return doc.createMaterial(name).setBaseColorTexture(texture);
}

async function gltfFiles(doc: Document): Promise<JSONDocument> {
  return io.writeJSON(doc, { format: Format.GLTF, basename: 'scene' });
}

/** The document as a `.gltf` with its buffers and images in data URIs. */
async function embedded(title: string, doc: Document | JSONDocument, edit?: (json: GltfJson) => void) {
  const files = doc instanceof Document ? await gltfFiles(doc) : doc;
  const json = embedResources(files) as GltfJson;
  edit?.(json);
  return { title, fileName: 'model.gltf', entry: 'model.gltf', files: { 'model.gltf': jsonBytes(json) } };
}

/** The document as a zip of `scene.gltf` with its external `.bin` and image files. */
async function zipped(title: string, doc: Document, edit?: (json: GltfJson, files: JSONDocument) => void) {
  const files = await gltfFiles(doc);
  edit?.(files.json as unknown as GltfJson, files);
  return {
    title,
    fileName: 'model.zip',
    entry: 'scene.gltf',
    files: { 'scene.gltf': jsonBytes(files.json), ...files.resources },
  };
}

const accessorIndex = (json: GltfJson, name: string) => json.accessors.findIndex((a) => a.name === name);

// ---------------------------------------------------------------- buffers and accessors

/** Two buffers, each in its own external `.bin` file, and an external image: merged into one GLB chunk. */
function severalBuffers() {
  const doc = new Document();
  const first = doc.createBuffer('first').setURI('first.bin');
  const second = doc.createBuffer('second').setURI('second.bin');
  const primitive = quad(doc, first).setMaterial(texturedMaterial(doc));
  const node = sceneWith(doc, primitive);
  node.addChild(doc.createNode('Copy').setMesh(doc.createMesh('Copy').addPrimitive(quad(doc, second))));
  return zipped('two buffers in external .bin files and an external image', doc);
}

/**
 * Accessors without a buffer view (zeros, per the spec): a sparse POSITION over a zero base, and an unused one.
 * Hand-written: glTF-Transform always writes accessor data.
 */
function accessorsWithoutBufferViews() {
  const indices = new Uint8Array(new Uint16Array([0, 1, 2]).buffer);
  const values = new Uint8Array(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);
  const data = Buffer.concat([indices, Buffer.alloc(2), values]);
  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    buffers: [{ uri: `data:application/octet-stream;base64,${data.toString('base64')}`, byteLength: data.length }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 6 },
      { buffer: 0, byteOffset: 8, byteLength: 36 },
    ],
    accessors: [
      {
        componentType: 5126,
        count: 3,
        type: 'VEC3',
        min: [0, 0, 0],
        max: [1, 1, 0],
        sparse: {
          count: 3,
          indices: { bufferView: 0, componentType: 5123 },
          values: { bufferView: 1 },
        },
      },
      { componentType: 5126, count: 4, type: 'VEC2' },
    ],
  };
  return { title: 'accessors without buffer views, one sparse', ...single(json) };
}

/**
 * A buffer without a `uri` (its data undefined, as a `.gltf` may do) read by a sparse accessor, so the GLB needs a
 * binary chunk of its own for buffer 0. Hand-written: glTF-Transform writes every buffer's data.
 */
function bufferWithoutData() {
  const json = {
    asset: { version: '2.0' },
    accessors: [
      {
        bufferView: 0,
        componentType: 5126,
        count: 4,
        type: 'VEC3',
        min: [0, 0, 0],
        max: [1, 1, 1],
        sparse: {
          count: 2,
          indices: { bufferView: 1, byteOffset: 24, componentType: 5121 },
          values: { bufferView: 1 },
        },
      },
    ],
    bufferViews: [
      { buffer: 0, byteLength: 48 },
      { buffer: 0, byteOffset: 48, byteLength: 26 },
    ],
    buffers: [{ byteLength: 74 }],
  };
  return { title: 'a buffer without data (no uri) read by a sparse accessor', ...single(json) };
}

/** A sparse accessor on top of a real base, as glTF-Transform writes it for a mostly-unchanged morph target. */
function sparseMorphTarget() {
  const doc = new Document();
  const primitive = quad(doc);
  const delta = doc
    .createAccessor('sparse delta')
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 0, 0, 0, 0, 0, 0.5, 0, 0, 0]))
    .setSparse(true)
    .setBuffer(doc.getRoot().listBuffers()[0]);
  primitive.addTarget(doc.createPrimitiveTarget('lift').setAttribute('POSITION', delta));
  sceneWith(doc, primitive).getMesh()!.setWeights([0.25]);
  return embedded('a sparse accessor (a morph target moving one vertex)', doc);
}

/** Accessor types the spec does not know, on accessors nothing uses (the validator warns only). */
function unknownAccessorType() {
  const json = {
    asset: { version: '2.0' },
    accessors: [{ componentType: 5126, count: 24, min: [-1, -1, -1], max: [1, 1, 1], type: 'NotaVEC3' }],
  };
  return { title: "an unused accessor of type 'NotaVEC3'", ...single(json) };
}

// ---------------------------------------------------------------- skins, morphs, animations

/** A skinned quad: two joints, inverse bind matrices, JOINTS_0/WEIGHTS_0, and an animated joint. */
function skin() {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const primitive = quad(doc)
    .setAttribute(
      'JOINTS_0',
      doc
        .createAccessor()
        .setType('VEC4')
        .setArray(new Uint16Array([0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]))
        .setBuffer(buffer),
    )
    .setAttribute(
      'WEIGHTS_0',
      doc
        .createAccessor()
        .setType('VEC4')
        .setArray(new Float32Array([1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]))
        .setBuffer(buffer),
    );
  const hip = doc.createNode('Hip');
  const knee = doc.createNode('Knee').setTranslation([0, 0.5, 0]);
  hip.addChild(knee);
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const kneeInverse = [...identity.slice(0, 12), 0, -0.5, 0, 1];
  const skin = doc
    .createSkin('Rig')
    .addJoint(hip)
    .addJoint(knee)
    .setSkeleton(hip)
    .setInverseBindMatrices(
      doc
        .createAccessor()
        .setType('MAT4')
        .setArray(new Float32Array([...identity, ...kneeInverse]))
        .setBuffer(buffer),
    );
  const body = doc.createNode('Body').setMesh(doc.createMesh('Body').addPrimitive(primitive)).setSkin(skin);
  doc.getRoot().setDefaultScene(doc.createScene('Scene').addChild(hip).addChild(body));
  const times = doc
    .createAccessor()
    .setType('SCALAR')
    .setArray(new Float32Array([0, 1]))
    .setBuffer(buffer);
  const turns = doc
    .createAccessor()
    .setType('VEC4')
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0.383, 0.924]))
    .setBuffer(buffer);
  const sampler = doc.createAnimationSampler().setInput(times).setOutput(turns).setInterpolation('LINEAR');
  doc
    .createAnimation('Bend')
    .addSampler(sampler)
    .addChannel(doc.createAnimationChannel().setTargetNode(knee).setTargetPath('rotation').setSampler(sampler));
  return zipped('a skin with two joints and an animated joint', doc);
}

/** Two morph targets with default weights, and an animation of the weights. */
function morphTargets() {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const target = (name: string, dz: number) =>
    doc.createPrimitiveTarget(name).setAttribute(
      'POSITION',
      doc
        .createAccessor()
        .setType('VEC3')
        .setArray(new Float32Array([0, 0, 0, 0, 0, 0, 0, 0, dz, 0, 0, dz]))
        .setBuffer(buffer),
    );
  const primitive = quad(doc).addTarget(target('bulge', 0.2)).addTarget(target('dent', -0.2));
  const node = sceneWith(doc, primitive);
  node.getMesh()!.setWeights([0, 0]);
  const times = doc
    .createAccessor()
    .setType('SCALAR')
    .setArray(new Float32Array([0, 1]))
    .setBuffer(buffer);
  const weights = doc
    .createAccessor()
    .setType('SCALAR')
    .setArray(new Float32Array([0, 0, 1, 0.5]))
    .setBuffer(buffer);
  const sampler = doc.createAnimationSampler().setInput(times).setOutput(weights);
  doc
    .createAnimation('Breathe')
    .addSampler(sampler)
    .addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath('weights').setSampler(sampler));
  return embedded('two morph targets and a weights animation', doc);
}

// ---------------------------------------------------------------- extensions

function lightsPunctual() {
  const doc = new Document();
  const lights = doc.createExtension(KHRLightsPunctual);
  const node = sceneWith(doc, quad(doc));
  node.addChild(
    doc
      .createNode('Lamp')
      .setTranslation([0, 2, 0])
      .setExtension('KHR_lights_punctual', lights.createLight('Bulb').setType('point').setIntensity(5)),
  );
  return embedded('KHR_lights_punctual: a point light', doc);
}

function clearcoat() {
  const doc = new Document();
  const extension = doc.createExtension(KHRMaterialsClearcoat);
  const material = doc
    .createMaterial('Lacquer')
    .setExtension('KHR_materials_clearcoat', extension.createClearcoat().setClearcoatFactor(1));
  sceneWith(doc, quad(doc).setMaterial(material));
  return embedded('KHR_materials_clearcoat', doc);
}

function anisotropy() {
  const doc = new Document();
  const extension = doc.createExtension(KHRMaterialsAnisotropy);
  const material = doc
    .createMaterial('Brushed')
    .setExtension('KHR_materials_anisotropy', extension.createAnisotropy().setAnisotropyStrength(0.6));
  sceneWith(doc, quad(doc).setMaterial(material));
  return embedded('KHR_materials_anisotropy (with tangents)', doc);
}

function materialVariants() {
  const doc = new Document();
  const extension = doc.createExtension(KHRMaterialsVariants);
  const red = doc.createMaterial('Red').setBaseColorFactor([1, 0, 0, 1]);
  const blue = doc.createMaterial('Blue').setBaseColorFactor([0, 0, 1, 1]);
  const mappings = extension
    .createMappingList()
    .addMapping(extension.createMapping().setMaterial(red).addVariant(extension.createVariant('Red')))
    .addMapping(extension.createMapping().setMaterial(blue).addVariant(extension.createVariant('Blue')));
  sceneWith(doc, quad(doc).setMaterial(red).setExtension('KHR_materials_variants', mappings));
  return zipped('KHR_materials_variants: two colour variants', doc);
}

function textureTransform() {
  const doc = new Document();
  const extension = doc.createExtension(KHRTextureTransform);
  const material = texturedMaterial(doc);
  material
    .getBaseColorTextureInfo()!
    .setExtension('KHR_texture_transform', extension.createTransform().setScale([2, 2]).setRotation(0.5));
  sceneWith(doc, quad(doc).setMaterial(material));
  return embedded('KHR_texture_transform on an embedded (data URI) image', doc);
}

/** Positions as 16-bit integers and UVs as normalised 16-bit integers (a required extension). */
function meshQuantization() {
  const doc = new Document();
  doc.createExtension(KHRMeshQuantization).setRequired(true);
  const buffer = doc.createBuffer();
  const primitive = doc
    .createPrimitive()
    .setAttribute(
      'POSITION',
      doc
        .createAccessor()
        .setType('VEC3')
        .setArray(new Int16Array([0, 0, 0, 1000, 0, 0, 1000, 1000, 0, 0, 1000, 0]))
        .setBuffer(buffer),
    )
    .setAttribute(
      'TEXCOORD_0',
      doc
        .createAccessor()
        .setType('VEC2')
        .setArray(new Uint16Array([0, 65535, 65535, 65535, 65535, 0, 0, 0]))
        .setNormalized(true)
        .setBuffer(buffer),
    )
    .setIndices(
      doc
        .createAccessor()
        .setType('SCALAR')
        .setArray(new Uint16Array([0, 1, 2, 0, 2, 3]))
        .setBuffer(buffer),
    );
  sceneWith(doc, primitive).setScale([0.001, 0.001, 0.001]);
  return zipped('KHR_mesh_quantization: 16-bit positions and UVs', doc);
}

/**
 * EXT_texture_webp with a PNG fallback: the texture's `source` is the PNG, the extension's the
 * WebP. Hand-written: glTF-Transform writes one image per texture.
 */
async function textureWebpWithFallback() {
  const doc = new Document();
  sceneWith(doc, quad(doc).setMaterial(texturedMaterial(doc, 'label')));
  const webp = await sharp({ create: { width: 4, height: 4, channels: 4, background: '#8a5a2b' } })
    .webp()
    .toBuffer();
  return zipped('EXT_texture_webp with a PNG fallback, in external files', doc, (json, files) => {
    const images = json.images as Array<Record<string, unknown>>;
    images.push({ uri: 'textures/label.webp', mimeType: 'image/webp' });
    files.resources['textures/label.webp'] = new Uint8Array(webp);
    const textures = json.textures as Array<Record<string, unknown>>;
    textures[0].extensions = { EXT_texture_webp: { source: images.length - 1 } };
    json.extensionsUsed = [...(json.extensionsUsed ?? []), 'EXT_texture_webp'];
  });
}

/** EXT_texture_webp as glTF-Transform writes it: a WebP image only, the extension required. */
async function textureWebpOnly() {
  const doc = new Document();
  doc.createExtension(EXTTextureWebP).setRequired(true);
  const webp = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#336699' } })
    .webp()
    .toBuffer();
  const texture = doc.createTexture('paint').setImage(new Uint8Array(webp)).setMimeType('image/webp');
  sceneWith(doc, quad(doc).setMaterial(doc.createMaterial('Paint').setBaseColorTexture(texture)));
  return embedded('EXT_texture_webp without a fallback (required)', doc);
}

/**
 * KHR_animation_pointer: a material's base colour animated through a JSON pointer (the channel
 * has no target node). Hand-written: glTF-Transform does not implement the extension.
 */
function animationPointer() {
  const doc = new Document();
  const buffer = doc.createBuffer();
  sceneWith(doc, quad(doc).setMaterial(doc.createMaterial('Glow')));
  doc
    .createAccessor('times')
    .setType('SCALAR')
    .setArray(new Float32Array([0, 1]))
    .setBuffer(buffer);
  doc
    .createAccessor('colours')
    .setType('VEC4')
    .setArray(new Float32Array([1, 1, 1, 1, 1, 0, 0, 1]))
    .setBuffer(buffer);
  return embedded('KHR_animation_pointer: an animated material colour', doc, (json) => {
    json.extensionsUsed = [...(json.extensionsUsed ?? []), 'KHR_animation_pointer'];
    Object.assign(json.accessors[accessorIndex(json, 'times')], { min: [0], max: [1] });
    json.animations = [
      {
        name: 'Pulse',
        samplers: [{ input: accessorIndex(json, 'times'), output: accessorIndex(json, 'colours') }],
        channels: [
          {
            sampler: 0,
            target: {
              path: 'pointer',
              extensions: {
                KHR_animation_pointer: { pointer: '/materials/0/pbrMetallicRoughness/baseColorFactor' },
              },
            },
          },
        ],
      },
    ];
  });
}

// ---------------------------------------------------------------- images

/**
 * Images every way a `.gltf` may hold them: an external file, a data URI, and buffer views of
 * an external buffer and of a data-URI buffer (hand-written, after the validator's own image test).
 */
async function imagesEveryWay() {
  const png = Buffer.from(makePng(2, 2));
  const jpeg = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#00ffff' } })
    .jpeg()
    .toBuffer();
  const pngUri = `data:image/png;base64,${png.toString('base64')}`;
  const json = {
    asset: { version: '2.0' },
    buffers: [
      { uri: 'pixels.png', byteLength: png.length },
      { uri: `data:application/octet-stream;base64,${png.toString('base64')}`, byteLength: png.length },
    ],
    bufferViews: [
      { buffer: 0, byteLength: png.length },
      { buffer: 1, byteLength: png.length },
    ],
    images: [
      { uri: 'pixels.png' },
      { uri: pngUri },
      { bufferView: 0, mimeType: 'image/png' },
      { bufferView: 1, mimeType: 'image/png' },
      { uri: 'photo.jpg' },
    ],
  };
  return {
    title: 'images as external files, data URIs and buffer views',
    fileName: 'images.zip',
    entry: 'images.gltf',
    files: { 'images.gltf': jsonBytes(json), 'pixels.png': new Uint8Array(png), 'photo.jpg': new Uint8Array(jpeg) },
  };
}

// ---------------------------------------------------------------- refused by the validator

/** A `.gltf` whose JSON starts with a UTF-8 byte order mark (the validator: INVALID_JSON). */
async function byteOrderMark() {
  const doc = new Document();
  sceneWith(doc, quad(doc));
  const { files } = await embedded('', doc);
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...files['model.gltf']]);
  return {
    title: 'a .gltf starting with a UTF-8 BOM',
    fileName: 'bom.gltf',
    entry: 'bom.gltf',
    files: { 'bom.gltf': bom },
  };
}

/** A lone hand-written `.gltf`. */
function single(json: unknown) {
  return { fileName: 'model.gltf', entry: 'model.gltf', files: { 'model.gltf': strToU8(JSON.stringify(json)) } };
}

/** Every case of the corpus. */
export async function gltfCorpus(): Promise<CorpusCase[]> {
  return Promise.all([
    severalBuffers(),
    accessorsWithoutBufferViews(),
    bufferWithoutData(),
    sparseMorphTarget(),
    unknownAccessorType(),
    skin(),
    morphTargets(),
    lightsPunctual(),
    clearcoat(),
    anisotropy(),
    materialVariants(),
    textureTransform(),
    meshQuantization(),
    textureWebpWithFallback(),
    textureWebpOnly(),
    animationPointer(),
    imagesEveryWay(),
    byteOrderMark(),
  ]);
}
