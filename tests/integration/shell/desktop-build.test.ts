import { join } from 'node:path';
import { resolveConfig as resolveElectronConfig } from 'electron-vite';
import { resolveConfig as resolveViteConfig } from 'vite';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('the desktop build (electron.vite.config.ts)', () => {
  // The renderer's build options as `node scripts/build.mjs` resolves them: electron-vite's
  // renderer preset (its defaults merged under ours by a plugin) applied by Vite itself. Resolving
  // bundles nothing.
  it('minifies the window’s scripts and styles', async () => {
    const { config } = await resolveElectronConfig({ root: ROOT }, 'build', 'production');
    const renderer = config?.renderer;
    if (!renderer) throw new Error('electron.vite.config.ts: no renderer build');
    const resolved = await resolveViteConfig(
      { ...renderer, configFile: false, logLevel: 'silent' },
      'build',
      'production',
    );
    expect(resolved.build.minify).toBeTruthy();
    expect(resolved.build.cssMinify).toBeTruthy();
  });
});
