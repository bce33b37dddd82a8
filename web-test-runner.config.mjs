import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { fakeBff } from './test/element/fake-bff.mjs';

/**
 * The `<config-share>` element's browser tests (`npm run test:element`), in the system Chromium
 * (CHROME_PATH, else /usr/bin/chromium) through Playwright, against a fake BFF in the dev server.
 * SwiftShader renders WebGL; the long timeout covers three.js under it.
 */
export default {
  files: 'test/element/**/*.test.ts',
  nodeResolve: true,
  // The element's tsconfig: Lit's decorators need experimentalDecorators and no define semantics.
  plugins: [esbuildPlugin({ ts: true, target: 'auto', tsconfig: './element/tsconfig.json' })],
  middleware: [await fakeBff()],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--disable-dev-shm-usage',
          '--enable-unsafe-swiftshader',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
          '--disable-sync',
        ],
      },
    }),
  ],
  // Software WebGL on two shared cores is slow: generous limits, and one file at a time, so a
  // test waits on its own page rather than on another file's shader compiles.
  concurrency: 1,
  testsFinishTimeout: 600_000,
  testFramework: { config: { timeout: 90_000 } },
};
