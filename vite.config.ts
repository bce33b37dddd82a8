import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * Vitest runs the server, worker and BFF tests against real Postgres and Redis; the element's
 * browser tests (test/element) run in web-test-runner instead.
 *
 * `vite build` is the `<config-share>` library build (`npm run build:element`): one ES module at a
 * stable name, `dist/element/config-share.js`, which the BFF serves at `/element/config-share.js`,
 * and hashed chunks (the lazy three.js viewer) in `dist/element/assets/`, which it may cache
 * forever. Chunks are imported relative to the entry, so they load from the BFF on any page.
 *
 * `vite build --mode console` is the owner console (`npm run build:console`): the page in
 * demo/owner/ (Lit, like the element) built into `dist/console/`, which the BFF serves at
 * `/demo/owner/`. Relative asset URLs, so it works under any prefix.
 */
const consoleBuild: ViteUserConfig = {
  root: fileURLToPath(new URL('./demo/owner', import.meta.url)),
  base: './',
  build: {
    outDir: fileURLToPath(new URL('./dist/console', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: { output: { minify: true } },
  },
};

export default defineConfig(({ mode }) =>
  mode === 'console'
    ? consoleBuild
    : {
        build: {
          outDir: 'dist/element',
          emptyOutDir: true,
          lib: {
            entry: 'element/index.ts',
            formats: ['es'],
            fileName: () => 'config-share.js',
          },
          rolldownOptions: {
            output: {
              chunkFileNames: 'assets/[name]-[hash].js',
              // A script for merchant pages, not a package for bundlers: minified fully (Vite's lib
              // mode keeps ES output readable otherwise).
              minify: true,
            },
          },
        },
        test: {
          include: ['test/**/*.test.ts'],
          exclude: ['test/bench/**', 'test/element/**', 'node_modules/**'],
          globalSetup: ['test/helpers/global-setup.ts'],
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          teardownTimeout: 30_000,
        },
      },
);
