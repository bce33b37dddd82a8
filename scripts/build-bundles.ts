import { ensureConsoleBuilt, ensureElementBuilt } from './start/element-build.js';

/**
 * `npm run build`'s second step, after tsc: the element and the owner console that the BFF serves (dist/element,
 * dist/console), rebuilt by Vite only when missing or older than their sources (docs/commands.md).
 */
const say = (line: string) => console.log(`build  | ${line}`);

try {
  await Promise.all([ensureElementBuilt(say), ensureConsoleBuilt(say)]);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
