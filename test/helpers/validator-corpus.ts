import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';

/**
 * The Khronos glTF-Validator's own test files (test/fixtures/gltf-validator/README.md), each as a person would upload
 * it: a `.gltf` naming files beside it goes up as a `.zip` with them (docs/api.md, POST /assets), any other as it is.
 */
export interface ValidatorCorpusFile {
  /** Path in the validator's test folder, e.g. `base/data/buffer/valid.gltf`. */
  path: string;
  /** The name it is uploaded under. */
  fileName: string;
  /** The bytes uploaded: the model, or the zip of it and its resources. */
  bytes: Uint8Array;
  /** The error codes of its expected report: none for a valid file. */
  expectedErrors: string[];
}

const ROOT = path.join(import.meta.dirname, '../fixtures/gltf-validator');
/** Model path → the error codes of its expected report. */
const expected: Record<string, string[]> = JSON.parse(readFileSync(path.join(ROOT, 'expected-errors.json'), 'utf8'));

const readBytes = (relative: string) => new Uint8Array(readFileSync(path.join(ROOT, relative)));

/** The URIs of a glTF's buffers and images that name a file beside it (a broken JSON names none). */
function resourcesBeside(gltfPath: string, bytes: Uint8Array): string[] {
  let json: { buffers?: unknown; images?: unknown };
  try {
    json = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return [];
  }
  const holders = [json?.buffers, json?.images].flatMap((list) => (Array.isArray(list) ? list : []));
  const uris = holders.map((holder) => (holder as { uri?: unknown } | null)?.uri);
  return uris.filter(
    (uri): uri is string =>
      typeof uri === 'string' &&
      !/^[a-z][a-z0-9+.-]*:/i.test(uri) &&
      existsSync(path.join(ROOT, path.posix.dirname(gltfPath), uri)),
  );
}

/** Every model of the corpus with the bytes to upload, in the order of expected-errors.json. */
export function validatorCorpus(): ValidatorCorpusFile[] {
  return Object.entries(expected).map(([modelPath, expectedErrors]) => {
    const bytes = readBytes(modelPath);
    const name = path.posix.basename(modelPath);
    const resources = modelPath.endsWith('.gltf') ? resourcesBeside(modelPath, bytes) : [];
    if (resources.length === 0) return { path: modelPath, fileName: name, bytes, expectedErrors };
    const files = Object.fromEntries([
      [name, bytes],
      ...resources.map((uri) => [uri, readBytes(path.posix.join(path.posix.dirname(modelPath), uri))]),
    ]);
    return { path: modelPath, fileName: name.replace(/\.gltf$/, '.zip'), bytes: zipSync(files), expectedErrors };
  });
}
