import * as validator from 'gltf-validator';
import { ModelFileError, invalidModelFile, type ModelFileIssue } from './model-file-error.js';

/**
 * The validator (compiled Dart) reads the whole underlying ArrayBuffer and ignores a view's
 * offset, so a Buffer from Node's shared pool must be copied into one of its own first.
 */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/** Runs the Khronos validator; any error refuses the file with the validator's own messages. Returns its summary. */
export async function validateGltf(
  bytes: Uint8Array,
  meta: { format: 'gltf' | 'glb'; uri: string },
  resources: Map<string, Uint8Array>,
  opts: { maxReportedIssues: number },
): Promise<Record<string, unknown>> {
  let report: validator.ValidationReport;
  try {
    report = await validator.validateBytes(ownBytes(bytes), {
      uri: meta.uri,
      format: meta.format,
      maxIssues: 200,
      writeTimestamp: false,
      externalResourceFunction: (uri) => {
        const data = resources.get(uri);
        // A GLB's external URIs have no archive to come from: the validator reports IO_ERROR.
        return data ? Promise.resolve(ownBytes(data)) : Promise.reject(new Error(`The resource "${uri}" is not available.`));
      },
    });
  } catch (error) {
    const reason = typeof error === 'string' ? error : String((error as Error)?.message ?? error);
    throw invalidModelFile('NOT_GLTF', `The file is not a valid glTF model (${reason}).`);
  }
  const messages: ModelFileIssue[] = report.issues.messages.map(({ code, message, severity, pointer }) => ({ code, message, severity, ...(pointer ? { pointer } : {}) }));
  if (report.issues.numErrors > 0) {
    const errors = messages.filter((m) => m.severity === 0).slice(0, opts.maxReportedIssues);
    throw new ModelFileError(
      'invalid_file',
      `The glTF validator found ${report.issues.numErrors} error(s): ${errors.slice(0, 3).map((e) => e.message).join('; ')}`,
      { validatorVersion: report.validatorVersion, numErrors: report.issues.numErrors, messages: errors },
    );
  }
  const info = report.info ?? {};
  return {
    validatorVersion: report.validatorVersion,
    numWarnings: report.issues.numWarnings,
    warnings: messages.filter((m) => m.severity === 1).slice(0, opts.maxReportedIssues),
    ...pick(info, ['version', 'generator', 'extensionsUsed', 'extensionsRequired', 'animationCount', 'materialCount', 'hasMorphTargets', 'hasSkins', 'hasTextures', 'drawCallCount', 'totalVertexCount', 'totalTriangleCount']),
  };
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in source).map((k) => [k, source[k]]));
}
