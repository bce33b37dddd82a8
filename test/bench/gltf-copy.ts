import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';

/**
 * What `gltf-transform copy <in> <out>` does (read with every extension, write): the bench's
 * anchor for the import, run as its own process. Prints the read+write time in milliseconds.
 */
const [input, output] = process.argv.slice(2);
const started = performance.now();
const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
await io.write(output, await io.read(input));
process.stdout.write(String(performance.now() - started));
