// electron-builder afterPack hook: puts better-sqlite3 built for Electron's ABI
// (scripts/rebuild-electron.mjs) where the packaged module looks for its binding, so the packaged
// app loads it with no nativeBinding option. The project's node_modules keeps its Node build.
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import electronBuilder from 'electron-builder';

export default async function afterPack(context) {
  const arch = electronBuilder.Arch[context.arch];
  const source = join(
    import.meta.dirname,
    'native',
    `${context.electronPlatformName}-${arch}`,
    'better_sqlite3.node',
  );
  if (!existsSync(source)) {
    throw new Error(`${source} is missing: run npm run rebuild:electron on this platform and architecture`);
  }
  const resources = context.packager.getResourcesDir(context.appOutDir);
  const target = join(
    resources,
    'app.asar.unpacked',
    'node_modules',
    'better-sqlite3',
    'build',
    'Release',
    'better_sqlite3.node',
  );
  copyFileSync(source, target);
}
