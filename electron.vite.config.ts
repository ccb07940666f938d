import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = fileURLToPath(new URL('.', import.meta.url));
const shared = resolve(root, 'src/shared');

export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      // `core`: the core's own process (a utility process the shell starts, see src/main/core-process.ts).
      rollupOptions: {
        input: {
          index: resolve(root, 'src/main/index.ts'),
          core: resolve(root, 'src/main/core/process/entry.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve(root, 'src/preload/index.ts') }, output: { format: 'cjs' } },
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    resolve: { alias: { '@shared': shared } },
    plugins: [svelte()],
    build: {
      rollupOptions: { input: resolve(root, 'src/renderer/index.html') },
      // electron-vite leaves the renderer unminified by default (its scripts and styles then
      // weighed 1.4 MB, evaluated at every start of the window); minified as Vite does for a page,
      // and as the web host's build (`scripts/build.mjs --renderer-only`) always was.
      minify: true,
    },
  },
});
