import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stampClosed } from '../cache/recovery';
import { FIRST_SCREEN_FILE, loadFirstScreen } from './first-screen';
import { forgetFirstScreen, writeFirstScreen } from './first-screen-write';

describe('the first-screen record', () => {
  let dataDir: string;
  let cacheFile: string;
  let logged: string[];
  const log = (m: string): void => void logged.push(m);
  const load = (version = '1.2.3') => loadFirstScreen({ dataDir, version, log });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'first-screen-'));
    logged = [];
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ activeAccountId: 'acc-1', accounts: [] }));
    mkdirSync(join(dataDir, 'accounts', 'acc-1'), { recursive: true });
    cacheFile = join(dataDir, 'accounts', 'acc-1', 'cache-abc.sqlite');
    writeFileSync(cacheFile, 'the cache as closed');
    // What closing the cache leaves (closeAccountDb): its stamp beside it.
    stampClosed(cacheFile);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  function write(version = '1.2.3'): boolean {
    return writeFirstScreen({
      dataDir,
      version,
      accountId: 'acc-1',
      cacheFile,
      answers: [
        { channel: 'app.info', arg: {}, value: { name: 'Workdesk' } },
        { channel: 'inbox.list', arg: { first: 60 }, value: { rows: [{ taskId: 't1' }], total: 1 } },
      ],
    });
  }

  it('answers the recorded reads until the core is open, then asks the window to read again', () => {
    expect(write()).toBe(true);
    const screen = load();
    expect(screen, logged.join('\n')).toBeDefined();
    expect(screen!.answer('inbox.list', { first: 60 })).toEqual({
      ok: true,
      value: { rows: [{ taskId: 't1' }], total: 1 },
    });
    expect(screen!.answer('app.info', {})).toEqual({ ok: true, value: { name: 'Workdesk' } });
    // Another argument, or a read it does not hold: the core answers.
    expect(screen!.answer('inbox.list', {})).toBeUndefined();
    expect(screen!.answer('settings.get', {})).toBeUndefined();
    const refresh = screen!.coreOpened();
    expect(refresh?.entities).toContain('tasks');
    expect(refresh?.entities).toContain('projects');
    expect(screen!.answer('app.info', {})).toBeUndefined();
  });

  it("is not served to the other host than the one that wrote it (its app.info names the writer's)", () => {
    writeFirstScreen({
      dataDir,
      version: '1.2.3',
      accountId: 'acc-1',
      cacheFile,
      answers: [{ channel: 'app.info', arg: {}, value: { name: 'Workdesk', transport: 'web' } }],
    });
    expect(loadFirstScreen({ dataDir, version: '1.2.3', transport: 'electron', log })).toBeUndefined();
    expect(logged.at(-1)).toContain('written by the web host, this is the electron host');
    expect(loadFirstScreen({ dataDir, version: '1.2.3', transport: 'web', log })).toBeDefined();
  });

  it('asks for no second read when it answered nothing', () => {
    write();
    expect(load()!.coreOpened()).toBeUndefined();
  });

  it('answers nothing more once the window sends a call other than a read', () => {
    write();
    const screen = load()!;
    expect(screen.answer('tasks.create', { title: 'x' })).toBeUndefined();
    expect(screen.answer('app.info', {})).toBeUndefined();
  });

  it("drops only the window's place when the window keeps another", () => {
    writeFirstScreen({
      dataDir,
      version: '1.2.3',
      accountId: 'acc-1',
      cacheFile,
      answers: [
        { channel: 'app.lastPlace', arg: {}, value: { kind: 'settings' } },
        { channel: 'app.info', arg: {}, value: { name: 'Workdesk' } },
      ],
    });
    const screen = load()!;
    expect(screen.answer('app.rememberPlace', { kind: 'changes' })).toBeUndefined();
    expect(screen.answer('app.lastPlace', {})).toBeUndefined();
    expect(screen.answer('app.info', {})).toEqual({ ok: true, value: { name: 'Workdesk' } });
  });

  it('is not served once the cache file changed since it was written, and says so naming the file', () => {
    write();
    appendFileSync(cacheFile, ' and a write after');
    expect(load()).toBeUndefined();
    expect(logged.join('\n')).toMatch(/first-screen\.json .*not served: its cache file .* changed since/);
  });

  it('is not served while a log is beside the cache (not closed cleanly)', () => {
    write();
    writeFileSync(`${cacheFile}-wal`, '');
    expect(load()).toBeUndefined();
    expect(logged.join('\n')).toMatch(/not closed cleanly/);
  });

  it('is not served for another active account or another version', () => {
    write();
    expect(load('1.2.4')).toBeUndefined();
    expect(logged.at(-1)).toMatch(/written by version 1\.2\.3, this is 1\.2\.4/);
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ activeAccountId: 'acc-2', accounts: [] }));
    expect(load()).toBeUndefined();
    expect(logged.at(-1)).toMatch(/the active account is "acc-2"/);
  });

  it('falls back to waiting when the record is damaged or missing, naming the file', () => {
    const file = join(dataDir, FIRST_SCREEN_FILE);
    writeFileSync(file, '{"format": 1, "appVer');
    expect(load()).toBeUndefined();
    expect(logged.at(-1)).toContain(`${file} is damaged`);
    writeFileSync(file, JSON.stringify({ format: 2, appVersion: '1.2.3' }));
    expect(load()).toBeUndefined();
    expect(logged.at(-1)).toMatch(/is damaged \(accountId: expected a text\)/);
    // A record of the format before has no window's place among its answers: not served.
    writeFileSync(file, JSON.stringify({ format: 1, appVersion: '1.2.3' }));
    expect(load()).toBeUndefined();
    expect(logged.at(-1)).toMatch(/format: expected 2, got 1/);
    rmSync(file);
    expect(load()).toBeUndefined();
    expect(logged.at(-1)).toContain(`no record at ${file}`);
  });

  it('is not written for a cache closed with no stamp, and is forgotten before a close', () => {
    write();
    forgetFirstScreen(dataDir);
    expect(load()).toBeUndefined();
    rmSync(`${cacheFile}.closed`);
    expect(write()).toBe(false);
    expect(load()).toBeUndefined();
  });
});
