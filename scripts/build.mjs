// Builds the app with electron-vite's JS API (its bin ships without the run bit).
// --renderer-only builds just the renderer into out/renderer, for the web host and e2e tests;
// add --no-minify to read function names in a profile (bench/profile-renderer.ts --profile).
import { build as buildElectron, loadConfigFromFile } from 'electron-vite';
import { build as buildVite } from 'vite';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

if (process.argv.includes('--renderer-only')) {
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
} else {
  await buildElectron({ root, logLevel: 'warn' });
}
