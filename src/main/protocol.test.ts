import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  privileged: [] as unknown[],
  handlers: new Map<string, (request: Request) => Promise<Response>>(),
}));
vi.mock('electron', () => ({
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown[]) => electron.privileged.push(...schemes),
    handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
      electron.handlers.set(scheme, handler),
  },
  net: {
    fetch: async (url: string) => new Response(await readFile(fileURLToPath(url))),
  },
}));
const { handleAppProtocol, registerAppScheme } = await import('./protocol');
const { RENDERER_CSP } = await import('./security');

let root: string;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-protocol-'));
  root = join(dir, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Workdesk</title>');
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'outside');
  handleAppProtocol(root);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (url: string) => electron.handlers.get('app')!(new Request(url));

describe('app:// protocol', () => {
  it('is registered as a standard, secure scheme', () => {
    registerAppScheme();
    expect(electron.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
  });

  it('serves the renderer files with the CSP and their type', async () => {
    const index = await get('app://workdesk/index.html');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(RENDERER_CSP);
    expect(index.headers.get('content-type')).toBe('text/html');
    expect(await index.text()).toContain('<title>Workdesk</title>');
    const script = await get('app://workdesk/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript');
  });

  it('answers 404 outside the renderer folder, for other hosts and for missing files', async () => {
    for (const url of [
      'app://workdesk/../secret.txt',
      'app://workdesk/%2e%2e/secret.txt',
      'app://workdesk/..%2fsecret.txt',
      'app://other/index.html',
      'app://workdesk/missing.js',
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
  });
});
