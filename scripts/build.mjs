// Builds the app with electron-vite's JS API (its bin ships without the run bit).
// --renderer-only builds just the renderer into out/renderer, for the web host and e2e tests;
// add --no-minify to read function names in a profile (bench/profile-renderer.ts --profile).
// --web (alone or with --renderer-only) also bundles the web host (src/main/web.ts) into
// out/web/web.mjs, so that `npm run web` starts without compiling TypeScript: the packages it
// loads at every start (zod, ws, mime, p-limit) are bundled in, since resolving and loading
// zod's hundred-odd files and ws's CommonJS from node_modules took about as long as the rest of
// the start together; better-sqlite3 (native) and the service's own packages (fastify) stay in
// node_modules, and the bundled service is a chunk of its own, loaded only for the local
// workspace. The core (src/main/web-core-worker.ts and what it imports) is an entry of its own,
// run on a worker thread the host starts once its port listens (src/main/web-core.ts).
import { build as buildElectron, loadConfigFromFile } from 'electron-vite';
import { build as buildVite } from 'vite';
import { build as bundle } from 'esbuild';
import { resolve } from 'node:path';
import { rmSync } from 'node:fs';

const root = resolve(import.meta.dirname, '..');

const web = process.argv.includes('--web');

/** What the web bundle leaves in node_modules: a native module, the service's server, ws's optional helpers. */
const WEB_EXTERNAL = ['better-sqlite3', 'fastify', '@fastify/*', 'bufferutil', 'utf-8-validate'];
const rendererOnly = process.argv.includes('--renderer-only');

/**
 * zod's `z.locales` (the error messages in some fifty languages, 370 KB of the bundle's 800 KB of
 * zod) is left out of the web bundle: esbuild keeps a namespace re-export whole, and the core
 * parsed and ran it at every start for nothing (no code here calls `z.locales`; the English
 * messages come from `locales/en.js`, which zod imports directly and stays in).
 */
const withoutZodLocales = {
  name: 'without-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: 'zod-locales', namespace: 'without-zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'without-zod-locales' }, () => ({
      contents: 'export {};',
      loader: 'js',
    }));
  },
};

if (web) {
  // Chunks of an earlier build would stay beside the new ones (their names carry a hash).
  rmSync(resolve(root, 'out/web'), { recursive: true, force: true });
  await bundle({
    // The core runs on a worker thread of the host (src/main/web-core.ts): its entry is a file of
    // its own beside web.mjs.
    entryPoints: {
      web: resolve(root, 'src/main/web.ts'),
      'web-core-worker': resolve(root, 'src/main/web-core-worker.ts'),
    },
    outdir: resolve(root, 'out/web'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: WEB_EXTERNAL,
    plugins: [withoutZodLocales],
    // A bundled CommonJS package (ws) requires its optional native helpers, which stay outside.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (rendererOnly) {
  const { config } = await loadConfigFromFile(
    { command: 'build', mode: 'production' },
    undefined,
    root,
    'warn',
  );
  const renderer = config.renderer ?? {};
  await buildVite({
    ...renderer,
    configFile: false,
    base: './',
    logLevel: 'warn',
    build: {
      ...renderer.build,
      ...(process.argv.includes('--no-minify') ? { minify: false } : {}),
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
    },
  });
} else if (!web) {
  await buildElectron({ root, logLevel: 'warn' });
}
