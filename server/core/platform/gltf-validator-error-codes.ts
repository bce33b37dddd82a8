import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

let errorCodes: readonly string[] | undefined;

/**
 * The codes the glTF validator reports as errors, from its own issue table (ISSUES.md, shipped
 * with the package: one `|CODE|message|Severity|` row per code), read once per thread.
 */
export function gltfValidatorErrorCodes(): readonly string[] {
  errorCodes ??= readFileSync(createRequire(import.meta.url).resolve('gltf-validator/ISSUES.md'), 'utf8')
    .split('\n')
    .flatMap((line) => /^\|([A-Z0-9_]+)\|.*\|Error\|$/.exec(line)?.[1] ?? []);
  return errorCodes;
}
