import type { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

/**
 * Delivery files (docs/delivery-files.md) compress their geometry with meshopt, which three decodes only with
 * meshoptimizer's decoder. It is a chunk of its own, fetched the first time a file needs it: an original-only page
 * never downloads it.
 */

/** The extensions whose buffer views need the decoder (three's GLTFLoader reads both). */
const MESHOPT_EXTENSIONS = ['EXT_meshopt_compression', 'KHR_meshopt_compression'];
/** A GLB's header: magic `glTF`, version, length; then its first chunk, which the format says is the JSON. */
const GLB_MAGIC = 0x46546c67;
const JSON_CHUNK = 0x4e4f534a;
const GLB_HEADER_BYTES = 12;
const CHUNK_HEADER_BYTES = 8;

/** The `extensionsUsed` of a GLB's JSON chunk (or of a .gltf file); none where it cannot be read (three says why). */
function extensionsUsed(file: ArrayBuffer): string[] {
  try {
    const view = new DataView(file);
    const start = GLB_HEADER_BYTES + CHUNK_HEADER_BYTES;
    let json = new Uint8Array(file);
    if (file.byteLength >= start && view.getUint32(0, true) === GLB_MAGIC) {
      if (view.getUint32(GLB_HEADER_BYTES + 4, true) !== JSON_CHUNK) return [];
      const length = Math.min(view.getUint32(GLB_HEADER_BYTES, true), file.byteLength - start);
      json = new Uint8Array(file, start, length);
    }
    const used: unknown = JSON.parse(new TextDecoder().decode(json)).extensionsUsed;
    return Array.isArray(used) ? used.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

type Decoder = Parameters<GLTFLoader['setMeshoptDecoder']>[0];
let decoder: Promise<Decoder> | null = null;

/** The decoder, its WebAssembly instantiated; fetched once a page (again after a failed fetch). */
function meshoptDecoder(): Promise<Decoder> {
  decoder ??= import('three/addons/libs/meshopt_decoder.module.js').then(
    async ({ MeshoptDecoder }) => {
      await MeshoptDecoder.ready;
      return MeshoptDecoder;
    },
    (error: unknown) => {
      decoder = null;
      throw error;
    },
  );
  return decoder;
}

/** Gives `loader` the meshopt decoder when `file` needs it, so that a file that does not never fetches it. */
export async function prepareLoader(loader: GLTFLoader, file: ArrayBuffer): Promise<void> {
  if (extensionsUsed(file).some((name) => MESHOPT_EXTENSIONS.includes(name)))
    loader.setMeshoptDecoder(await meshoptDecoder());
}
