import { describe, expect, it } from 'vitest';
import { remapRoute } from './route-remap';
import type { Route } from '../views/routes';

describe('remapRoute', () => {
  it('swaps the local id of an open task beside a list', () => {
    const route: Route = { kind: 'project', projectId: 'p1', layout: 'list', taskId: 'tmp-1' };
    expect(remapRoute(route, 'tmp-1', '42')).toEqual({
      kind: 'project',
      projectId: 'p1',
      layout: 'list',
      taskId: '42',
    });
  });

  it('swaps a project id and a full-view task id', () => {
    expect(remapRoute({ kind: 'task', taskId: 'tmp-2' }, 'tmp-2', '7')).toEqual({
      kind: 'task',
      taskId: '7',
    });
    expect(remapRoute({ kind: 'project', projectId: 'tmp-3', layout: 'board' }, 'tmp-3', 'P9')).toEqual({
      kind: 'project',
      projectId: 'P9',
      layout: 'board',
    });
  });

  it('leaves a route that does not name the id as it was (same object)', () => {
    const route: Route = { kind: 'mywork', tab: 'action', taskId: 'other' };
    expect(remapRoute(route, 'tmp-1', '42')).toBe(route);
    const search: Route = { kind: 'search', query: 'tmp-1' };
    // Only id fields: a search for the text of the id is not an id.
    expect(remapRoute(search, 'tmp-1', '42')).toBe(search);
  });
});
