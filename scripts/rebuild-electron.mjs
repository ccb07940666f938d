// `npm run rebuild:electron`: builds better-sqlite3 for Electron's ABI into
// build/native/<platform>-<arch>/better_sqlite3.node (with the Electron version beside it in
// electron-version.txt), WITHOUT touching
// node_modules, whose Node build the tests use. The desktop app loads it through better-sqlite3's
// `nativeBinding` option (the shell sets WORKDESK_SQLITE_NATIVE_BINDING); the packaged app gets
// it as an extra resource (electron-builder.yml). Needs the network: a prebuilt binary is fetched
// from GitHub, else Electron's headers are fetched to compile it (python3, make, g++).
// `--if-needed` does nothing when the binary is already there (npm start and npm run dist).
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  copyFileSync,
  rmSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'));
const arch = process.env.npm_config_arch ?? process.arch;
const bindingPath = join(root, 'build', 'native', `${process.platform}-${arch}`, 'better_sqlite3.node');
const stampPath = join(dirname(bindingPath), 'electron-version.txt');
const upToDate =
  existsSync(bindingPath) &&
  existsSync(stampPath) &&
  readFileSync(stampPath, 'utf8').trim() === electronVersion;

if (process.argv.includes('--if-needed') && upToDate) process.exit(0);

const work = mkdtempSync(join(tmpdir(), 'workdesk-sqlite-electron-'));
try {
  // A copy without the Node build, so nothing under node_modules changes.
  cpSync(sqliteDir, work, { recursive: true, filter: (src) => !src.startsWith(join(sqliteDir, 'build')) });
  const run = (command, args) =>
    spawnSync(command, args, {
      cwd: work,
      stdio: 'inherit',
      env: { ...process.env },
      shell: process.platform === 'win32',
    });
  const bin = (name) =>
    join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

  let built =
    run(bin('prebuild-install'), ['--runtime', 'electron', '--target', electronVersion, '--arch', arch])
      .status === 0;
  if (!built) {
    console.error('No prebuilt binary could be fetched; compiling against Electron headers instead.');
    built =
      run(bin('node-gyp'), [
        'rebuild',
        '--release',
        `--target=${electronVersion}`,
        `--arch=${arch}`,
        '--dist-url=https://electronjs.org/headers',
      ]).status === 0;
  }
  const output = join(work, 'build', 'Release', 'better_sqlite3.node');
  if (!built || !existsSync(output)) {
    console.error(
      `better-sqlite3 could not be built for Electron ${electronVersion}: this needs the network (GitHub or electronjs.org).`,
    );
    process.exit(1);
  }
  mkdirSync(dirname(bindingPath), { recursive: true });
  copyFileSync(output, bindingPath);
  writeFileSync(stampPath, `${electronVersion}\n`);
  console.log(`better-sqlite3 for Electron ${electronVersion}: ${bindingPath}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
