import * as validator from 'gltf-validator';
import { ModelFileError, invalidModelFile, type ModelFileIssue } from './model-file-error.js';

/**
 * The validator (compiled Dart) reads the whole underlying ArrayBuffer and ignores a view's
 * offset, so a Buffer from Node's shared pool must be copied into one of its own first.
 */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/** Issues the validator reports at most per run (its report of a hostile file stays small). */
const MAX_ISSUES = 200;

/**
 * Runs the Khronos validator; any error refuses the file. A run truncated at `maxIssues` without an error
 * is rerun on the error codes only, so an error after 200 warnings is not missed.
 */
export async function validateGltf(
  bytes: Uint8Array,
  meta: { format: 'gltf' | 'glb'; uri: string },
  resources: Map<string, Uint8Array>,
  opts: { maxReportedIssues: number; validatorErrorCodes: readonly string[] },
): Promise<Record<string, unknown>> {
  const data = ownBytes(bytes);
  const run = async (only: { onlyIssues?: readonly string[] }) => {
    try {
      return await validator.validateBytes(data, {
        uri: meta.uri,
        format: meta.format,
        maxIssues: MAX_ISSUES,
        ...only,
        writeTimestamp: false,
        externalResourceFunction: (uri) => {
          const resource = resources.get(uri);
          // A GLB's external URIs have no archive to come from: the validator reports IO_ERROR.
          return resource
            ? Promise.resolve(ownBytes(resource))
            : Promise.reject(new Error(`The resource "${uri}" is not available.`));
        },
      });
    } catch (error) {
      const reason = typeof error === 'string' ? error : String((error as Error)?.message ?? error);
      throw invalidModelFile('NOT_GLTF', `The file is not a valid glTF model (${reason}).`);
    }
  };
  const report = await run({});
  const last =
    report.issues.truncated && report.issues.numErrors === 0
      ? await run({ onlyIssues: opts.validatorErrorCodes })
      : report;
  const messages = (of: validator.ValidationReport): ModelFileIssue[] =>
    of.issues.messages.map(({ code, message, severity, pointer }) => ({
      code,
      message,
      severity,
      ...(pointer ? { pointer } : {}),
    }));
  if (last.issues.numErrors > 0) {
    const errors = messages(last)
      .filter((m) => m.severity === 0)
      .slice(0, opts.maxReportedIssues);
    throw new ModelFileError(
      'invalid_file',
      `The glTF validator found ${last.issues.numErrors} error(s): ${errors
        .slice(0, 3)
        .map((e) => e.message)
        .join('; ')}`,
      { validatorVersion: last.validatorVersion, numErrors: last.issues.numErrors, messages: errors },
    );
  }
  const info = report.info ?? {};
  return {
    validatorVersion: report.validatorVersion,
    numWarnings: report.issues.numWarnings,
    warnings: messages(report)
      .filter((m) => m.severity === 1)
      .slice(0, opts.maxReportedIssues),
    ...pick(info, [
      'version',
      'generator',
      'extensionsUsed',
      'extensionsRequired',
      'animationCount',
      'materialCount',
      'hasMorphTargets',
      'hasSkins',
      'hasTextures',
      'drawCallCount',
      'totalVertexCount',
      'totalTriangleCount',
    ]),
  };
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in source).map((k) => [k, source[k]]));
}
