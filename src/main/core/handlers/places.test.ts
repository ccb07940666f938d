// The window's last place per account: kept in the account's folder, given back after a restart
// (new handlers on the same folder), and checked when read: a damaged file, a value of another
// shape, or a place naming a project or task no longer held answers null (the window opens Home).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Place } from '../../../shared/ipc/app';
import { heldIn, LAST_PLACE_FILE, placeHandlers, type HeldCheck } from './places';

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

  it('answers null for a place whose project or task is no longer held', async () => {
    const held: HeldCheck = (param, id) =>
      param === 'projectId' || param === 'taskId' ? id !== 'gone' : undefined;
    await handlers()['app.rememberPlace']({ kind: 'project', projectId: 'gone', layout: 'list' });
    expect(await handlers(held)['app.lastPlace']({})).toBeNull();
    expect(logged[0]).toContain('projectId gone');
    await handlers()['app.rememberPlace']({ kind: 'mywork', tab: 'action', taskId: 'gone' });
    expect(await handlers(held)['app.lastPlace']({})).toBeNull();
    await handlers()['app.rememberPlace']({ kind: 'mywork', tab: 'action', taskId: 't1' });
    expect(await handlers(held)['app.lastPlace']({})).toEqual({
      kind: 'mywork',
      tab: 'action',
      taskId: 't1',
    });
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
});

describe('heldIn', () => {
  it('asks the cache for projects and tasks, and nothing else', () => {
    const held = heldIn({
      projects: { get: (id: string) => (id === 'p1' ? {} : null) },
      tasks: { row: (id: string) => (id === 't1' ? {} : null) },
    } as never);
    expect(held('projectId', 'p1')).toBe(true);
    expect(held('projectId', 'p2')).toBe(false);
    expect(held('taskId', 't1')).toBe(true);
    expect(held('taskId', 't2')).toBe(false);
    expect(held('tagId', 'x')).toBeUndefined();
  });
});
