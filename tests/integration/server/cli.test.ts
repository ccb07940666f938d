import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsersResponse } from '../../../src/shared/api/org';
import { SEED_IDS } from '../../../src/server/seed/index';

const root = mkdtempSync(join(tmpdir(), 'wms-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const dataDir = () => join(root, `data${dirs++}`);

const TOKEN = 'cli-token-0123456789';

interface Started {
  child: ChildProcessWithoutNullStreams;
  output: string;
  stderr: () => string;
  baseUrl: string;
}

function spawnCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Starts `npm run server` with `args` (on an empty seed) and waits for its banner. */
function startCli(args: string[]): Promise<Started> {
  return banner(spawnCli(['--port', '0', '--data', dataDir(), '--seed', 'empty', ...args]));
}

async function banner(child: ChildProcessWithoutNullStreams): Promise<Started> {
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const output = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (/data:/.test(text)) resolve(text);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${text} ${err}`)));
  });
  const baseUrl = /base URL: (\S+)/.exec(output)?.[1] ?? '';
  return { child, output, stderr: () => err, baseUrl };
}

async function stop(started: Started): Promise<void> {
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  await exited;
}

/** Runs the CLI expecting it to refuse: resolves with its exit code and stderr. */
async function refusal(args: string[]): Promise<{ code: number | null; err: string }> {
  const child = spawnCli(['--port', '0', '--data', dataDir(), ...args]);
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, err };
}

describe('npm run server', () => {
  it('starts on the given port and data folder and prints its base URL and token', async () => {
    const started = await startCli(['--token', TOKEN]);
    try {
      expect(started.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2\.0$/);
      expect(started.output).toMatch(/profile spec/);
      expect(started.output).toMatch(new RegExp(`token:\\s+${TOKEN}`));
      const res = await fetch(`${started.baseUrl}/users`, { headers: { 'svc-api-token': TOKEN } });
      expect(UsersResponse.parse(await res.json()).length).toBeGreaterThan(0);
      // On loopback there is nothing to warn about.
      expect(started.stderr()).toBe('');
    } finally {
      await stop(started);
    }
  });

  it('refuses a bad port with a message', async () => {
    const { code, err } = await refusal(['--port', 'x']);
    expect(code).toBe(1);
    expect(err).toMatch(/--port/);
  });

  it('refuses a token shorter than 16 characters', async () => {
    const { code, err } = await refusal(['--token', 'short-token']);
    expect(code).toBe(1);
    expect(err).toMatch(/^--token: a token must be at least 16 characters \(this one has 11\)/);
  });

  it('refuses a certificate without its key', async () => {
    const { code, err } = await refusal(['--tls-cert', join(root, 'none.pem')]);
    expect(code).toBe(1);
    expect(err).toMatch(/--tls-cert and --tls-key: give both or neither/);
  });

  it('seeds a large generated workspace with --seed generated --tasks N --projects M', async () => {
    const child = spawnCli([
      '--port',
      '0',
      '--data',
      dataDir(),
      '--seed',
      'generated',
      '--tasks',
      '500',
      '--projects',
      '12',
      '--token',
      TOKEN,
    ]);
    const started = await banner(child);
    try {
      const get = async <T>(path: string) =>
        (await (
          await fetch(`${started.baseUrl}${path}`, { headers: { 'svc-api-token': TOKEN } })
        ).json()) as T;
      const projects = await get<{ id: string; systemType: string }[]>('/projects');
      // The twelve generated (two folders, ten projects) under the seed's Workspace.
      expect(projects).toHaveLength(13);
      expect(projects.filter((p) => p.systemType === 'FOLDER')).toHaveLength(3);
      const tasks = await get<{ id: string; parentTaskId: string | null }[]>(
        `/project/${SEED_IDS.workspace}/tasks?subfolders=true&closed=true`,
      );
      expect(tasks).toHaveLength(500);
      expect(tasks.filter((t) => t.parentTaskId !== null).length).toBeGreaterThan(50);
      expect(await get<unknown[]>(`/task/${tasks[0]!.id}/messages`)).toHaveLength(3);
    } finally {
      await stop(started);
    }
  });

  it('takes --tasks and --projects only with --seed generated', async () => {
    const { code, err } = await refusal(['--tasks', '100']);
    expect(code).toBe(1);
    expect(err).toMatch(/^--tasks and --projects: only with --seed generated/);
  });

  it('warns when it serves beyond loopback without TLS', async () => {
    const started = await startCli(['--host', '0.0.0.0', '--token', TOKEN]);
    try {
      expect(started.stderr()).toMatch(/^warning: serving 0\.0\.0\.0 without TLS/);
    } finally {
      await stop(started);
    }
  });

  it('serves HTTPS with --tls-cert/--tls-key, the goodday profile, and per-user tokens', async () => {
    const dir = mkdtempSync(join(root, 'tls-'));
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    // A throw-away self-signed certificate for 127.0.0.1 (openssl is part of the CI image).
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const userTokens = join(dir, 'user-tokens.json');
    const bobToken = 'bob-token-0123456789';
    writeFileSync(userTokens, JSON.stringify({ [SEED_IDS.users.bob]: bobToken }));
    const started = await startCli([
      '--host',
      '0.0.0.0',
      '--token',
      TOKEN,
      '--tls-cert',
      cert,
      '--tls-key',
      key,
      '--profile',
      'goodday',
      '--user-tokens',
      userTokens,
    ]);
    try {
      expect(started.baseUrl).toMatch(/^https:\/\//);
      expect(started.output).toMatch(/profile goodday/);
      expect(started.output).toMatch(/per-user tokens: 1/);
      // With TLS, no warning; only the note on upload addresses (no --base-url given).
      expect(started.stderr()).toMatch(/^note: upload addresses are built on the IP address/);
      expect(started.stderr()).not.toMatch(/warning/);
      const port = new URL(started.baseUrl).port;
      const ca = readFileSync(cert);
      const get = (path: string, token: string) =>
        new Promise<number>((resolve, reject) => {
          const req = request(
            { host: '127.0.0.1', port, path: `/2.0${path}`, ca, headers: { 'gd-api-token': token } },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.once('error', reject);
          req.end();
        });
      expect(await get('/users', TOKEN)).toBe(200);
      expect(await get('/users', bobToken)).toBe(200);
      expect(await get('/users', 'wrong-token-0123456789')).toBe(401);
      // The goodday profile has no tag list.
      expect(await get('/tags', TOKEN)).toBe(404);
    } finally {
      await stop(started);
    }
  });
});
