/**
 * `npm run check:boundaries`: the import rules of .dependency-cruiser.cjs over the sources.
 * dependency-cruiser 18's `depcruise` command refuses Node 20 (it asks for 22+), which CI and
 * `npm start` still run on; its programmatic API works on 20, so this calls that with the same
 * config. On Node 22+ this is equivalent to:
 *   depcruise server worker bff element demo/owner scripts test --config .dependency-cruiser.cjs
 */
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const SOURCES = ['server', 'worker', 'bff', 'element', 'demo/owner', 'scripts', 'test'];

const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
const tsConfig = extractTSConfig(options.tsConfig.fileName);
const result = await cruise(SOURCES, { ...options, outputType: 'err' }, {}, { tsConfig });
process.stdout.write(result.output);
process.exitCode = result.exitCode === 0 ? 0 : 1;
