import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsersResponse } from '../../../src/shared/api/index';

const dataDir = mkdtempSync(join(tmpdir(), 'wms-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run server', () => {
  it('starts on the given port and data folder and prints its base URL and token', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/server/cli.ts',
        '--port',
        '0',
        '--data',
        dataDir,
        '--seed',
        'empty',
        '--token',
        'cli-token',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (/token:/.test(text)) resolve(text);
        });
        child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${text}`)));
      });
      const baseUrl = /base URL: (\S+)/.exec(output)?.[1];
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/2\.0$/);
      expect(output).toMatch(/token:\s+cli-token/);
      const res = await fetch(`${baseUrl}/users`, { headers: { 'svc-api-token': 'cli-token' } });
      expect(UsersResponse.parse(await res.json()).length).toBeGreaterThan(0);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('refuses a bad port with a message', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli.ts', '--port', 'x', '--data', dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/--port/);
  });
});
