import { readFile, writeFile } from 'node:fs/promises';
import { makeDeliveryFile } from '#core/domain/models/delivery-file.js';
import { gltfValidatorErrorCodes } from '#core/platform/gltf-validator-error-codes.js';

/**
 * The delivery file of one GLB (docs/delivery-files.md), as the CPU pool makes it, run as its own process for the
 * bench (delivery-files.ts): writes it to `output` and prints the outcome and the milliseconds from reading the file
 * to the outcome. Without a file, nothing (the idle process the bench subtracts).
 */
const [file, output] = process.argv.slice(2);
if (file) {
  const started = performance.now();
  const outcome = await makeDeliveryFile(await readFile(file), { validatorErrorCodes: gltfValidatorErrorCodes() });
  const ms = performance.now() - started;
  if (outcome.kind === 'ready' && output) await writeFile(output, outcome.glb);
  process.stdout.write(
    JSON.stringify({ ms, kind: outcome.kind, reason: outcome.kind === 'skipped' ? outcome.reason : undefined }),
  );
}
