import { LinkError, parseLink } from '../../../shared/links';
import type { Cache } from '../cache/cache';
import { HandlerError } from '../errors';
import type { HandlerMap } from './types';

/** Links to tasks and projects, checked and found in the account's cache. */
export function linkHandlers({
  cache,
  realIdOf,
}: {
  cache: Cache;
  /** A local id of an item since acknowledged, as its real id (a link copied while offline). */
  realIdOf: (id: string) => string;
}): HandlerMap<'links.resolve'> {
  return {
    'links.resolve': ({ link }) => {
      let parsed;
      try {
        parsed = parseLink(link);
      } catch (err) {
        if (err instanceof LinkError) throw new HandlerError('invalid-argument', err.message, 'link');
        throw err;
      }
      if (parsed.kind === 'project') {
        const project = cache.projects.get(realIdOf(parsed.id));
        if (!project)
          throw new HandlerError('not-found', `No project ${parsed.id} in this workspace`, 'link');
        return { kind: 'project', id: project.id, name: project.name };
      }
      if ('shortId' in parsed) {
        const row = cache.tasks.byShortId(parsed.shortId);
        if (!row) throw new HandlerError('not-found', `No task #${parsed.shortId} in this workspace`, 'link');
        return { kind: 'task', id: row.id, name: row.name };
      }
      const task = cache.tasks.get(realIdOf(parsed.id));
      if (!task) throw new HandlerError('not-found', `No task ${parsed.id} in this workspace`, 'link');
      return { kind: 'task', id: task.id, name: task.name };
    },
  };
}
