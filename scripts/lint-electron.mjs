// `npm run lint:electron`: runs @doyensec/electronegativity over src/ and fails on any finding
// above LOW that is not listed, with its reason, in build/electronegativity-reviewed.json.
// Findings in test files are ignored (tests hold CSP strings and mocks, not app code).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const cli = require.resolve('@doyensec/electronegativity/dist/index.js');
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
const reviewed = JSON.parse(
  readFileSync(join(root, 'build', 'electronegativity-reviewed.json'), 'utf8'),
).reviewed;

const out = mkdtempSync(join(tmpdir(), 'workdesk-electronegativity-'));
try {
  const csv = join(out, 'findings.csv');
  const run = spawnSync(
    process.execPath,
    [cli, '-i', join(root, 'src'), '-r', '-v', 'false', '-e', electronVersion, '-o', csv],
    {
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  if (run.status !== 0) {
    console.error(run.stdout, run.stderr);
    console.error('electronegativity failed to run');
    process.exit(1);
  }
  const rows = parseCsv(readFileSync(csv, 'utf8')).slice(1);
  const findings = rows
    .filter((row) => row.length >= 5)
    .map(([check, severity, confidence, file, location]) => ({ check, severity, confidence, file, location }))
    .filter((f) => !/\.test\.ts$/.test(f.file));
  const unexplained = findings.filter(
    (f) =>
      f.severity !== 'LOW' &&
      f.severity !== 'INFORMATIONAL' &&
      !reviewed.some((r) => r.check === f.check && r.file === f.file),
  );
  for (const f of findings) {
    const review = reviewed.find((r) => r.check === f.check && r.file === f.file);
    console.log(
      `${f.severity.padEnd(6)} ${f.check} ${f.file}:${f.location}${review ? ` (reviewed: ${review.reason})` : ''}`,
    );
  }
  if (unexplained.length) {
    console.error(
      `\n${unexplained.length} finding(s) above LOW are not reviewed in build/electronegativity-reviewed.json`,
    );
    process.exit(1);
  }
  console.log(`electronegativity: ${findings.length} finding(s), none above LOW left unexplained`);
} finally {
  rmSync(out, { recursive: true, force: true });
}

function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field.trim());
      field = '';
    } else if (c === '\n') {
      row.push(field.trim());
      rows.push(row);
      row = [];
      field = '';
    } else if (c !== '\r') field += c;
  }
  if (field || row.length) rows.push([...row, field.trim()]);
  return rows;
}
