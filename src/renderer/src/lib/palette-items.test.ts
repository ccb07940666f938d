import { describe, expect, it } from 'vitest';
import { SNIPPET_HIT_END as E, SNIPPET_HIT_START as S } from '@shared/search-query';
import {
  groupItems,
  hitGroup,
  hitItem,
  matchesWords,
  matchingCommands,
  type PaletteItem,
} from './palette-items';
import type { SearchHit } from '@shared/ipc/search';
import type { ProjectNode } from '@shared/ipc/projects';

const item = (key: string, group: PaletteItem['group']): PaletteItem => ({
  key,
  group,
  label: key,
  run: () => {},
});

describe('palette items', () => {
  it('matches every word of the query anywhere, ignoring case', () => {
    expect(matchesWords('Go to Calendar · Agenda', 'cal agen')).toBe(true);
    expect(matchesWords('Go to Calendar', 'cal settings')).toBe(false);
    expect(matchesWords('anything', '  ')).toBe(true);
  });

  it('lists the places a query matches before the commands that make something', () => {
    const commands = [
      { id: 'new-task', label: 'New task' },
      { id: 'new-event', label: 'New calendar event' },
      { id: 'go-calendar', label: 'Go to Calendar' },
      { id: 'go-agenda', label: 'Go to Calendar · Agenda' },
    ];
    expect(matchingCommands(commands, 'calendar').map((c) => c.id)).toEqual([
      'go-calendar',
      'go-agenda',
      'new-event',
    ]);
    expect(matchingCommands(commands, 'new').map((c) => c.id)).toEqual(['new-task', 'new-event']);
    // No query: the declaration order, as the palette lists every command.
    expect(matchingCommands(commands, '').map((c) => c.id)).toEqual([
      'new-task',
      'new-event',
      'go-calendar',
      'go-agenda',
    ]);
  });

  it('orders the groups tasks first and commands last, capping each group', () => {
    const items = [item('c1', 'Commands'), item('t1', 'Tasks'), item('a1', 'Accounts'), item('t2', 'Tasks')];
    expect(groupItems(items).map((i) => i.key)).toEqual(['t1', 't2', 'a1', 'c1']);
    expect(groupItems(items, 1).map((i) => i.key)).toEqual(['t1', 'a1', 'c1']);
  });

  it('lists project and folder hits as their own group, after tasks and before messages', () => {
    const hit = (kind: SearchHit['kind'], id: string): SearchHit => ({
      kind,
      id,
      title: id,
      snippet: id,
      taskId: null,
      projectId: null,
      shortId: null,
      date: null,
    });
    const context = { node: () => undefined };
    const items = [hit('message', 'm1'), hit('project', 'p1'), hit('task', 't1'), hit('project', 'f1')].map(
      (h) => hitItem(h, context, () => {}),
    );
    expect(hitGroup(hit('project', 'p1'))).toBe('Projects');
    expect(groupItems(items).map((i) => `${i.group}:${i.key}`)).toEqual([
      'Tasks:task:t1',
      'Projects:project:p1',
      'Projects:project:f1',
      'Messages:message:m1',
    ]);
  });

  it('decorates a project hit from the tree and shows its snippet only when the match is elsewhere', () => {
    const folder = { id: 'f1', name: 'Marketing', isFolder: true, archived: false, color: 3 } as ProjectNode;
    const project = {
      id: 'p1',
      name: 'Website relaunch',
      isFolder: false,
      archived: true,
      color: null,
    } as ProjectNode;
    const nodes = new Map([folder, project].map((n) => [n.id, n]));
    const context = { node: (id: string) => nodes.get(id) };
    const byName: SearchHit = {
      kind: 'project',
      id: 'f1',
      title: 'Marketing',
      snippet: `${S}Marketing${E}`,
      taskId: null,
      projectId: 'f1',
      shortId: null,
      date: null,
    };
    expect(hitItem(byName, context, () => {})).toMatchObject({
      key: 'project:f1',
      group: 'Projects',
      label: 'Marketing',
      detail: 'Folder',
      snippet: undefined,
      color: 'hsl(30 60% 52%)',
    });
    const byDescription: SearchHit = {
      ...byName,
      id: 'p1',
      title: 'Website relaunch',
      snippet: `a new ${S}blog${E}`,
      projectId: 'p1',
    };
    expect(hitItem(byDescription, context, () => {})).toMatchObject({
      detail: 'Archived',
      snippet: `a new ${S}blog${E}`,
    });
    // A message names its task's project and shows where the words matched.
    const message: SearchHit = {
      kind: 'message',
      id: 'm1',
      title: 'Task',
      snippet: `${S}blog${E} draft`,
      taskId: 't1',
      projectId: 'p1',
      shortId: '353',
      date: null,
    };
    expect(hitItem(message, context, () => {})).toMatchObject({
      group: 'Messages',
      detail: 'Website relaunch',
      number: '#353',
      snippet: `${S}blog${E} draft`,
      color: undefined,
    });
  });
});
