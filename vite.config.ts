import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

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
