import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeBff } from './test/element/fake-bff.mjs';
import { SYSTEM_CHROMIUM } from './test/helpers/system-chromium-options.mjs';

/** Where `executeServerCommand('screenshot', { name })` saves the page (layout.test.ts), to be looked at. */
const SCREENSHOTS = process.env.ELEMENT_SCREENSHOTS ?? join(tmpdir(), 'config-share-screenshots');

/** The `screenshot` command: a PNG of the test's page as the browser shows it; answers the file's path. */
const screenshotPlugin = {
  name: 'screenshot',
  async executeCommand({ command, payload, session }) {
    if (command !== 'screenshot') return undefined;
    const path = join(SCREENSHOTS, `${String(payload.name).replace(/[^\w.-]/g, '_')}.png`);
    await mkdir(SCREENSHOTS, { recursive: true });
    await session.browser.getPage(session.id).screenshot({ path });
    return path;
  },
};

/**
 * `#core/….js` (package.json imports) names a TypeScript source of server/core: nodeResolve alone would ask for the
 * .js, and esbuildPlugin maps only relative `.js` imports to their `.ts`.
 */
const coreImports = {
  name: 'core-imports',
  resolveImport({ source }) {
    if (source.startsWith('#core/')) return `/server/core/${source.slice('#core/'.length).replace(/\.js$/, '.ts')}`;
    return undefined;
  },
};

/**
 * The element's browser tests in the system Chromium (CHROME_PATH, else /usr/bin/chromium) via Playwright.
 * SwiftShader renders WebGL; the long timeout covers three.js under it.
 */
export default {
  files: 'test/element/**/*.test.ts',
  nodeResolve: true,
  // The element's tsconfig: Lit's decorators need experimentalDecorators and no define semantics.
  plugins: [
    coreImports,
    esbuildPlugin({ ts: true, target: 'auto', tsconfig: './element/tsconfig.json' }),
    screenshotPlugin,
  ],
  middleware: [await fakeBff()],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: SYSTEM_CHROMIUM,
    }),
  ],
  // Software WebGL on two shared cores is slow: generous limits, and one file at a time, so a
  // test waits on its own page rather than on another file's shader compiles.
  concurrency: 1,
  testsFinishTimeout: 600_000,
  testFramework: { config: { timeout: 90_000 } },
};
