import { ESLint } from 'eslint';
import { execSync } from 'node:child_process';
const rev = process.argv[2];
const files = execSync(`git ls-tree -r --name-only ${rev} src/main/core`).toString().split('\n').filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const eslint = new ESLint({ overrideConfigFile: true, overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: (await import('typescript-eslint')).parser }, plugins: { workdesk: { rules: { 'core-layers': (await import('/work/wt/root/eslint-rules/core-layers.js')).coreLayers } } }, rules: { 'workdesk/core-layers': 'error' } }] });
let n = 0;
for (const f of files) {
  const text = execSync(`git show ${rev}:${f}`).toString();
  const [r] = await eslint.lintText(text, { filePath: f });
  for (const m of r.messages) { n++; console.log(`${f}:${m.line} ${m.message}`); }
}
console.log('violations:', n);
