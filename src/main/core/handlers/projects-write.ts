import type { Cache } from '../cache/cache';
import type { AccountOutbox } from '../outbox/account-outbox';
import { noteTriedTemplate, templatesOffered, templateWorked } from '../sync/project-templates';
import { stamp } from '../sync/context';
import type { HandlerMap } from './types';

type ProjectsWrite =
  | 'projects.update'
  | 'projects.setCustomFields'
  | 'projects.createFolder'
  | 'projects.create'
  | 'members.add'
  | 'members.setAccess'
  | 'members.remove';

/**
 * Project, folder and membership writes, queued through the outbox like task writes. With the
 * cache, a template id typed for a service that lists no templates is remembered once the
 * project it made is acknowledged (the New-project dialog offers it again).
 */
export function projectsWriteHandlers({
  outbox,
  cache,
}: {
  outbox: AccountOutbox;
  cache?: Cache;
}): HandlerMap<ProjectsWrite> {
  const at = (): string => stamp(new Date());
  if (cache)
    outbox.outbox.onDidRemapId(({ entity, tempId }) => {
      if (entity === 'project') cache.transaction(() => templateWorked(cache, at(), tempId));
    });
  const id = (value: string): string => outbox.realIdOf(value);
  const opt = (value: string | undefined): string | undefined =>
    value === undefined ? undefined : id(value);
  const clean = <T extends object>(value: T): T =>
    Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
  const result = ({ entryId }: { entryId: number | undefined }) => ({ entryId: entryId ?? null });
  const create = (type: 'folder' | 'project', input: { parentProjectId?: string | undefined }) => {
    const tempId = outbox.newTempId();
    const { entryId } = outbox.write('project.create', {
      type,
      tempId,
      input: clean({ ...input, parentProjectId: opt(input.parentProjectId) }),
    });
    return { id: tempId, entryId: entryId ?? null };
  };
  return {
    'projects.update': ({ projectId, changes }) =>
      result(
        outbox.write('project.update', {
          projectId: id(projectId),
          changes: clean({ ...changes, parentProjectId: opt(changes.parentProjectId) }),
        }),
      ),
    'projects.setCustomFields': (input) =>
      result(outbox.write('project.setCustomFields', { ...input, projectId: id(input.projectId) })),
    'projects.createFolder': (input) => create('folder', input),
    'projects.create': (input) => {
      const made = create('project', input);
      if (cache && !templatesOffered(cache))
        noteTriedTemplate(cache, at(), made.id, input.projectTemplateId, input.name);
      return made;
    },
    'members.add': (input) =>
      result(outbox.write('member.add', { ...input, projectId: id(input.projectId) })),
    'members.setAccess': (input) =>
      result(outbox.write('member.setAccess', { ...input, projectId: id(input.projectId) })),
    'members.remove': (input) =>
      result(outbox.write('member.remove', { ...input, projectId: id(input.projectId) })),
  };
}
