// The window's last place per account: kept in the account's folder, given back after a restart
// (new handlers on the same folder), and checked when read: a damaged file, a value of another
// shape, or a place naming a project or task no longer held answers null (the window opens Home).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Place } from '../../../shared/ipc/app';
import { heldIn, LAST_PLACE_FILE, placeHandlers, writeWhole, type HeldCheck } from './places';

let dir: string;
let logged: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'workdesk-places-'));
  logged = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const holdsAll: HeldCheck = () => true;
const handlers = (held: HeldCheck = holdsAll) =>
  placeHandlers({ dir, held, log: (message) => logged.push(message) });

describe('placeHandlers', () => {
  it('gives back the place kept, after a restart', async () => {
    await handlers()['app.rememberPlace']({ kind: 'mywork', tab: 'assigned' });
    await handlers()['app.rememberPlace']({ kind: 'project', projectId: 'p1', layout: 'board' });
    expect(await handlers()['app.lastPlace']({})).toEqual({
      kind: 'project',
      projectId: 'p1',
      layout: 'board',
    });
    expect(logged).toEqual([]);
  });

  it('answers null when nothing was kept', async () => {
    expect(await handlers()['app.lastPlace']({})).toBeNull();
    expect(logged).toEqual([]);
  });

  it('answers null for a damaged file, and the log names it', async () => {
    writeFileSync(join(dir, LAST_PLACE_FILE), '{"kind": "mywork", "tab"');
    expect(await handlers()['app.lastPlace']({})).toBeNull();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(join(dir, LAST_PLACE_FILE));
    expect(logged[0]).toContain('damaged');
  });

  it('answers null for a value that is not a place, naming the field', async () => {
    writeFileSync(join(dir, LAST_PLACE_FILE), JSON.stringify({ kind: 'project', projectId: 42 }));
    expect(await handlers()['app.lastPlace']({})).toBeNull();
    expect(logged[0]).toContain('projectId');
    writeFileSync(join(dir, LAST_PLACE_FILE), JSON.stringify(['mywork']));
    expect(await handlers()['app.lastPlace']({})).toBeNull();
    expect(logged).toHaveLength(2);
  });

  it('answers null for a place whose project is no longer held', async () => {
    const held: HeldCheck = (param, id) =>
      param === 'projectId' || param === 'taskId' ? id !== 'gone' : undefined;
    await handlers()['app.rememberPlace']({ kind: 'project', projectId: 'gone', layout: 'list' });
    expect(await handlers(held)['app.lastPlace']({})).toBeNull();
    expect(logged[0]).toContain('projectId gone');
    await handlers()['app.rememberPlace']({ kind: 'mywork', tab: 'action', taskId: 't1' });
    expect(await handlers(held)['app.lastPlace']({})).toEqual({
      kind: 'mywork',
      tab: 'action',
      taskId: 't1',
    });
  });

  it('drops only an open task, document or record no longer held, and keeps the view', async () => {
    const held: HeldCheck = (param, id) =>
      ['projectId', 'taskId', 'documentId', 'recordId'].includes(param) ? id !== 'gone' : undefined;
    await handlers()['app.rememberPlace']({
      kind: 'project',
      projectId: 'p1',
      layout: 'list',
      taskId: 'gone',
    });
    expect(await handlers(held)['app.lastPlace']({})).toEqual({
      kind: 'project',
      projectId: 'p1',
      layout: 'list',
    });
    expect(logged[0]).toContain('taskId gone');
    expect(logged[0]).toContain('reopened without it');
    await handlers()['app.rememberPlace']({
      kind: 'project',
      projectId: 'p1',
      layout: 'overview',
      documentId: 'gone',
    });
    expect(await handlers(held)['app.lastPlace']({})).toEqual({
      kind: 'project',
      projectId: 'p1',
      layout: 'overview',
    });
    await handlers()['app.rememberPlace']({ kind: 'crm', tab: 'accounts', recordId: 'gone', taskId: 't1' });
    expect(await handlers(held)['app.lastPlace']({})).toEqual({ kind: 'crm', tab: 'accounts', taskId: 't1' });
  });

  it('answers the real id of an item named while offline', async () => {
    const held: HeldCheck = (param, id) => (param === 'taskId' ? id === 'T1' : undefined);
    await handlers()['app.rememberPlace']({ kind: 'mywork', tab: 'action', taskId: 'local-a' });
    const places = placeHandlers({
      dir,
      held,
      realIdOf: (id) => (id === 'local-a' ? 'T1' : id),
      log: (message) => logged.push(message),
    });
    expect(await places['app.lastPlace']({})).toEqual({ kind: 'mywork', tab: 'action', taskId: 'T1' });
    expect(logged).toEqual([]);
  });

  it('keeps nothing without an account', async () => {
    const none = placeHandlers(undefined);
    expect(await none['app.rememberPlace']({ kind: 'mywork', tab: 'action' })).toBeNull();
    expect(await none['app.lastPlace']({})).toBeNull();
  });

  it('writes the file whole, the same place once', async () => {
    const kept = handlers();
    await kept['app.rememberPlace']({ kind: 'settings' });
    writeFileSync(join(dir, LAST_PLACE_FILE), 'changed behind its back');
    // The same place again (a reload): not written again.
    await kept['app.rememberPlace']({ kind: 'settings' });
    expect(readFileSync(join(dir, LAST_PLACE_FILE), 'utf8')).toBe('changed behind its back');
    await kept['app.rememberPlace']({ kind: 'changes' });
    expect(JSON.parse(readFileSync(join(dir, LAST_PLACE_FILE), 'utf8'))).toEqual({ kind: 'changes' });
  });

  it('writes a temporary file renamed over the place: a failed rename leaves the earlier place', async () => {
    const file = join(dir, LAST_PLACE_FILE);
    writeFileSync(file, JSON.stringify({ kind: 'settings' }));
    const renames: string[] = [];
    const failing = (from: string): void => {
      renames.push(from);
      // The temporary file is whole when the rename is tried (a crash would come here).
      expect(JSON.parse(readFileSync(from, 'utf8'))).toEqual({ kind: 'changes' });
      throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
    };
    await expect(writeWhole(file, JSON.stringify({ kind: 'changes' }), failing)).rejects.toThrow('EIO');
    expect(renames).toHaveLength(1);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ kind: 'settings' });
    // The temporary file is removed.
    expect(readdirSync(dir)).toEqual([LAST_PLACE_FILE]);
  });

  it('tries the rename again while the system holds the file (Windows), then gives up cleanly', async () => {
    const file = join(dir, LAST_PLACE_FILE);
    let tries = 0;
    const busyTwice = (from: string, to: string): void => {
      tries += 1;
      if (tries <= 2) throw Object.assign(new Error('EBUSY: resource busy'), { code: 'EBUSY' });
      writeFileSync(to, readFileSync(from));
      rmSync(from);
    };
    await writeWhole(file, JSON.stringify({ kind: 'changes' }), busyTwice);
    expect(tries).toBe(3);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ kind: 'changes' });
    const alwaysHeld = (): void => {
      tries += 1;
      throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });
    };
    tries = 0;
    await expect(writeWhole(file, JSON.stringify({ kind: 'settings' }), alwaysHeld)).rejects.toThrow('EPERM');
    expect(tries).toBe(4);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ kind: 'changes' });
    expect(readdirSync(dir)).toEqual([LAST_PLACE_FILE]);
  });
});

describe('Place', () => {
  it('takes a kind and text parameters only', () => {
    expect(Place.safeParse({ kind: 'mywork', tab: 'action' }).success).toBe(true);
    expect(Place.safeParse({ tab: 'action' }).success).toBe(false);
    expect(Place.safeParse({ kind: '' }).success).toBe(false);
    expect(Place.safeParse({ kind: 'mywork', tab: { nested: true } }).success).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, 'x']));
    expect(Place.safeParse({ kind: 'mywork', ...many }).success).toBe(false);
  });

  it('takes only short identifiers as parameter names, naming the one refused', () => {
    expect(Place.safeParse({ kind: 'project', projectId: 'p1', layout: 'list' }).success).toBe(true);
    const huge = Place.safeParse({ kind: 'mywork', ['n'.repeat(5_000_000)]: 'x' });
    expect(huge.success).toBe(false);
    expect(huge.error?.issues[0]?.message).toMatch(/short identifier/);
    expect(String(huge.error?.issues[0]?.path[0])).toHaveLength(40);
    const odd = Place.safeParse({ kind: 'mywork', 'tab name': 'x' });
    expect(odd.success).toBe(false);
    expect(odd.error?.issues[0]?.path).toEqual(['tab name']);
  });
});

describe('heldIn', () => {
  it('asks the cache for projects, tasks, documents and CRM records, and nothing else', () => {
    const held = heldIn({
      projects: { get: (id: string) => (id === 'p1' ? {} : null) },
      tasks: { row: (id: string) => (id === 't1' ? {} : null) },
      projectParts: { document: (id: string) => (id === 'd1' ? {} : null) },
      crm: {
        contact: (id: string) => (id === 'c1' ? {} : null),
        account: (id: string) => (id === 'a1' ? {} : null),
      },
    } as never);
    expect(held('documentId', 'd1')).toBe(true);
    expect(held('documentId', 'd2')).toBe(false);
    expect(held('recordId', 'c1')).toBe(true);
    expect(held('recordId', 'a1')).toBe(true);
    expect(held('recordId', 'x1')).toBe(false);
    expect(held('projectId', 'p1')).toBe(true);
    expect(held('projectId', 'p2')).toBe(false);
    expect(held('taskId', 't1')).toBe(true);
    expect(held('taskId', 't2')).toBe(false);
    expect(held('tagId', 'x')).toBeUndefined();
  });
});
