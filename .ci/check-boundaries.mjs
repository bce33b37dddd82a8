/**
 * `npm run check:boundaries`: .dependency-cruiser.cjs over the sources, through dependency-cruiser's API because its
 * `depcruise` command refuses Node 20, which CI runs.
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
