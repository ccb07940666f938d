import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

const ROOT = join(import.meta.dirname, '..', '..', '..');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-web-entry-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** How the entry is started: from its source through tsx, or from the bundle `npm run web` runs. */
type Entry = 'source' | 'bundle';
const BUNDLE = join(ROOT, 'out', 'web', 'web.mjs');

/** Runs the web entry until it prints its address (or exits), then stops it with SIGTERM. */
function run(entry: Entry, args: string[], env: Record<string, string> = {}) {
  // tsx as a loader, so the signal reaches web.ts itself rather than a wrapper process.
  const start = entry === 'bundle' ? [BUNDLE] : ['--import', 'tsx', join(ROOT, 'src/main/web.ts')];
  const child = spawn(process.execPath, [...start, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      // The last line of the banner: everything before it has been printed.
      const match = /running at (\S+)/.exec(stdout);
      if (match?.[1] && stdout.includes('Ctrl+C stops it')) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  // A run expected to fail never becomes ready; its rejection is not an error of the test.
  ready.catch(() => {});
  return { child, ready, exited, output: () => ({ stdout, stderr }) };
}

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--web'], { cwd: ROOT, stdio: 'pipe' });
}, 60_000);

describe('the web bundle (out/web)', () => {
  it('keeps the bundled service in a chunk of its own, loaded only for the local workspace', () => {
    const entry = readFileSync(BUNDLE, 'utf8');
    const chunks = readdirSync(join(ROOT, 'out', 'web')).filter((f) => f.endsWith('.mjs') && f !== 'web.mjs');
    const server = chunks.filter((f) =>
      readFileSync(join(ROOT, 'out', 'web', f), 'utf8').includes('buildService'),
    );
    expect(server).toEqual([expect.stringMatching(/^bundled-server-/)]);
    expect(entry).not.toContain('function buildService');
    // The core runs on the host's worker thread (src/main/web-core.ts) and loads the service
    // from there, only when the local workspace opens.
    const core = readFileSync(join(ROOT, 'out', 'web', 'web-core-worker.mjs'), 'utf8');
    expect(core).not.toContain('function buildService');
    expect(core).toMatch(/import\(["']\.\/bundled-server-[\w-]+\.mjs["']\)/);
  });

  it("loads none of the core's code on the host's own thread: the address comes before it", () => {
    // Every file the entry imports statically, and what those import in turn.
    const loaded = new Set<string>();
    const visit = (file: string): void => {
      if (loaded.has(file)) return;
      loaded.add(file);
      const text = readFileSync(join(ROOT, 'out', 'web', file), 'utf8');
      for (const m of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"\.\/([^"]+)"/gm)) visit(m[1]!);
    };
    visit('web.mjs');
    expect(loaded.has('web-core-worker.mjs')).toBe(false);
    for (const file of loaded) {
      const text = readFileSync(join(ROOT, 'out', 'web', file), 'utf8');
      // The session and the schemas' library are the core's, loaded on its thread.
      expect(text, file).not.toContain('function openWebSession');
      expect(text, file).not.toContain('$ZodType');
    }
  });

  it('carries the packages every start loads, leaving only native and service-only ones outside', () => {
    const files = readdirSync(join(ROOT, 'out', 'web')).filter((f) => f.endsWith('.mjs'));
    const imported = new Set<string>();
    for (const f of files) {
      const text = readFileSync(join(ROOT, 'out', 'web', f), 'utf8');
      // esbuild writes each import on a line of its own: `import ... from "x";` or `import("x")`.
      for (const m of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|\bimport\("([^"]+)"\)/gm))
        imported.add(m[1] ?? m[2]!);
    }
    const packages = [...imported]
      .filter((name) => !name.startsWith('node:') && !name.startsWith('.'))
      .sort();
    expect(packages).toEqual(['better-sqlite3', 'fastify']);
  });
});

describe("the first-screen record (the window's first reads answered while the core loads)", () => {
  /** Opens the page's bridge as soon as the address is printed. */
  async function bridgeAtAddress(app: ReturnType<typeof run>): Promise<WebSocket> {
    const url = await new Promise<string>((resolve, reject) => {
      const look = (): void => {
        const match = /running at (\S+)/.exec(app.output().stdout);
        if (match?.[1]) resolve(match[1]);
      };
      app.child.stdout.on('data', look);
      look();
      void app.exited.then((code) => reject(new Error(`exited ${code}: ${app.output().stderr}`)));
    });
    const { origin, hash } = new URL(url);
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/bridge?${hash.slice(1)}`, {
      headers: { origin },
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return ws;
  }

  function answerOf(ws: WebSocket, id: number, channel: string, arg: unknown): Promise<unknown> {
    return new Promise((resolve) => {
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
        if (message.id === id) resolve(message.result);
      });
      ws.send(JSON.stringify({ id, channel, arg }));
    });
  }

  it('is written when the host closes, served at the next start, and a damaged one is named and waited past', async () => {
    const data = join(dir, 'data');
    const file = join(data, 'first-screen.json');
    const first = run('bundle', ['--data', data]);
    await first.ready;
    expect(first.output().stderr).toContain(`First screen: no record at ${file}`);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const record = JSON.parse(readFileSync(file, 'utf8')) as {
      accountId: string;
      answers: { channel: string; arg: unknown; value: unknown }[];
    };
    expect(record.accountId).toBe('local');
    expect(record.answers.map((a) => a.channel)).toEqual(
      expect.arrayContaining(['app.info', 'inbox.list', 'projects.tree', 'tasks.myWork', 'org.users']),
    );
    const tree = record.answers.find((a) => a.channel === 'projects.tree')!;

    const second = run('bundle', ['--data', data]);
    const ws = await bridgeAtAddress(second);
    // From the record or, if the core opened first on a busy machine, from the core, whose start-up
    // pull may have changed the counts already: what the record answers, and that the core answers
    // the same, are the in-process test's (tests/integration/shell/first-screen.test.ts).
    const answered = (await answerOf(ws, 1, 'projects.tree', tree.arg)) as { ok: boolean; value: unknown };
    expect(answered.ok).toBe(true);
    expect(answered.value).toMatchObject({ nodes: expect.any(Array) });
    await second.ready;
    expect(second.output().stderr).toContain(
      `First screen: the window's first reads are answered from ${file}`,
    );
    ws.close();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // A damaged record: the host says so, naming it, and the page waits for the core.
    writeFileSync(file, '{"format": 1, "answ');
    const third = run('bundle', ['--data', data]);
    const ws3 = await bridgeAtAddress(third);
    expect(await answerOf(ws3, 1, 'accounts.list', {})).toMatchObject({
      ok: true,
      value: { activeId: 'local' },
    });
    expect(third.output().stderr).toContain(`First screen: ${file} is damaged`);
    ws3.close();
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    // Written anew at that close.
    expect(() => JSON.parse(readFileSync(file, 'utf8')) as unknown).not.toThrow();
  });
});

describe.each<Entry>(['source', 'bundle'])('npm run web entry (src/main/web.ts) from its %s', (entry) => {
  it('keeps its data in --data and opens the local workspace with no setup', async () => {
    const app = run(entry, ['--data', join(dir, 'data')]);
    const url = await app.ready;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#secret=[\w-]{20,}$/);
    expect(app.output().stdout).toContain(`Data folder: ${join(dir, 'data')}`);
    const settings = JSON.parse(readFileSync(join(dir, 'data', 'settings.json'), 'utf8')) as {
      activeAccountId: string;
    };
    expect(settings.activeAccountId).toBe('local');
    expect(existsSync(join(dir, 'data', 'local-service', 'service.sqlite'))).toBe(true);
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  });

  it("answers a page's call made as soon as its address is printed (the workspace may still be opening)", async () => {
    const app = run(entry, ['--data', join(dir, 'data')]);
    // The address line alone: the banner's last line comes once the workspace is open.
    const url = await new Promise<string>((resolve, reject) => {
      app.child.stdout.on('data', () => {
        const match = /running at (\S+)/.exec(app.output().stdout);
        if (match?.[1]) resolve(match[1]);
      });
      void app.exited.then((code) => reject(new Error(`exited ${code}: ${app.output().stderr}`)));
    });
    const { origin, hash } = new URL(url);
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/bridge?${hash.slice(1)}`, {
      headers: { origin },
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    // The bridge also pushes events (the sync status) on the same socket, maybe before the
    // answer: the answer is the message carrying the call's id.
    const answer = new Promise<unknown>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as { id?: number };
        if (message.id === 1) resolve(message);
      });
    });
    ws.send(JSON.stringify({ id: 1, channel: 'accounts.list', arg: {} }));
    expect(await answer).toMatchObject({ id: 1, result: { ok: true, value: { activeId: 'local' } } });
    await app.ready;
    ws.close();
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  });

  it('takes WORKDESK_DATA_DIR when no --data is given', async () => {
    const app = run(entry, [], { WORKDESK_DATA_DIR: join(dir, 'env-data') });
    await app.ready;
    expect(existsSync(join(dir, 'env-data', 'settings.json'))).toBe(true);
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  });

  it('exits with the reason when the workspace cannot be opened (its core, on its own thread, failed)', async () => {
    // A file where the data folder should be: the core's thread cannot read its settings.
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    const app = run(entry, ['--data', file]);
    expect(await app.exited).toBe(2);
    expect(app.output().stdout).toContain('Workdesk is running at');
    expect(app.output().stderr).toMatch(/Could not open the workspace: .*ENOTDIR/);
  });

  it('refuses a bad option with a message naming it', async () => {
    const bad = run(entry, ['--port', 'eighty'], { WORKDESK_DATA_DIR: join(dir, 'unused') });
    expect(await bad.exited).toBe(2);
    expect(bad.output().stderr).toContain('--port: expected a port number from 0 to 65535, got "eighty"');
    const unknown = run(entry, ['--colour', 'red'], { WORKDESK_DATA_DIR: join(dir, 'unused') });
    expect(await unknown.exited).toBe(2);
    expect(unknown.output().stderr).toMatch(/--colour/);
    expect(existsSync(join(dir, 'unused'))).toBe(false);
  });
});
