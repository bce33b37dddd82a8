import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * Vitest's projects: `unit` needs no Postgres, Redis, browser or running service (so no template database);
 * `integration` runs the server, worker and BFF against the real services; `e2e` is test/e2e (whole stacks, browsers).
 */
const UNIT = [
  'test/owner/**/*.test.ts',
  'test/server/wire/**/*.test.ts',
  'test/bff/{read-cache-key,share-ids}.test.ts',
  'test/server/{demo-model,scene-format,visitor-month-spans}.test.ts',
  'test/server/core/{access-tokens,check-model-file,config,cpu-pool,deadline,delivery-file,dependency-errors}.test.ts',
  'test/server/core/{embed-hosts,form-field-rules,image-data-url,image-dimensions,import-model-in-pool}.test.ts',
  'test/server/core/{model-outline,public-payload,safe-unzip,scene-names,settings-table,ssrf-guard}.test.ts',
  'test/server/core/{storage,validator-corpus}.test.ts',
  'test/worker/{fetch-logo,mail,price-rows,render-request-pdf,request-rows,screenshot-for-pdf}.test.ts',
];
/** Benchmarks run with `npm run bench`, test/element in web-test-runner. */
const NOT_VITEST = ['test/bench/**', 'test/element/**'];
/** Migrates the template database each integration and e2e file copies. */
const SERVICES = 'test/helpers/global-setup.ts';

/**
 * Vitest runs the Node tests (test/element runs in web-test-runner). `vite build` is the element (one stable entry that
 * the BFF serves at /element/config-share.js, hashed chunks it may cache forever); `--mode console` the owner console.
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
            // Lit and what else the lazy chunks share with the loader stay in the loader (they import
            // it from there), rather than moving into a chunk the loader would have to fetch first.
            preserveEntrySignatures: 'allow-extension',
            output: {
              chunkFileNames: 'assets/[name]-[hash].js',
              // A script for merchant pages, not a package for bundlers: minified fully (Vite's lib
              // mode keeps ES output readable otherwise).
              minify: true,
            },
          },
        },
        test: {
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          teardownTimeout: 30_000,
          projects: [
            // In turn (groupOrder): unit first, the quick answer. Unit is pure CPU work that shares nothing: a file per
            // core (the default leaves one core to Vitest itself).
            { extends: true, test: { name: 'unit', include: UNIT, maxWorkers: 2, sequence: { groupOrder: 0 } } },
            {
              extends: true,
              test: {
                name: 'integration',
                include: ['test/**/*.test.ts'],
                exclude: [...UNIT, 'test/e2e/**', ...NOT_VITEST],
                globalSetup: [SERVICES],
                sequence: { groupOrder: 1 },
              },
            },
            {
              extends: true,
              test: {
                name: 'e2e',
                include: ['test/e2e/**/*.test.ts'],
                globalSetup: [SERVICES],
                sequence: { groupOrder: 2 },
              },
            },
          ],
        },
      },
);
