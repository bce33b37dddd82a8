import { readFile } from 'node:fs/promises';
import { glbOutline } from '#core/domain/models/model-outline.js';

/**
 * The outline of one GLB file, as the CPU pool computes it at upload, run as its own process for the bench
 * (model-outline.ts). Prints the milliseconds from reading the file to the outline; without a file, nothing (the
 * idle process the bench subtracts).
 */
const [file] = process.argv.slice(2);
if (file) {
  const started = performance.now();
  const outline = await glbOutline(await readFile(file));
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ ms, nodes: outline.nodes.length, triangles: outline.triangles }));
}
