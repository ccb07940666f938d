// `npm start`: build and launch the desktop app. Electron's binary is fetched on first launch
// from outside the npm registry; where that cannot happen, say so in one sentence and exit 1.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));

function electronBinary() {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8'));
  return existsSync(binary) ? binary : undefined;
}

let binary = electronBinary();
if (!binary) {
  spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: 'pipe', timeout: 300_000 });
  binary = electronBinary();
}
if (!binary) {
  console.error(
    'The Electron binary could not be downloaded on this machine, so the desktop app cannot start here: run `npm run web` to use Workdesk in your browser instead.',
  );
  process.exit(1);
}
// better-sqlite3 for Electron's ABI, beside (not instead of) the Node build the tests use.
const native = spawnSync(process.execPath, [resolve(root, 'scripts/rebuild-electron.mjs'), '--if-needed'], {
  stdio: 'inherit',
});
if (native.status !== 0) process.exit(native.status ?? 1);
const built = spawnSync(process.execPath, [resolve(root, 'scripts/build.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const child = spawn(binary, [root], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
