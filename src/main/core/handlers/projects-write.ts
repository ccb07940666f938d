import type { Cache } from '../cache/cache';
import type { AccountOutbox } from '../outbox/account-outbox';
import { noteTriedTemplate, templatesOffered, templateWorked } from '../sync/project-templates';
import { stamp } from '../sync/context';
import type { HandlerMap } from './types';
import { definedOnly, writer } from './write';

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
    outbox.onDidRemapId(({ entity, tempId }) => {
      if (entity === 'project') cache.transaction(() => templateWorked(cache, at(), tempId));
    });
  const { id, opt, queue, create } = writer(outbox);
  return {
    'projects.update': ({ projectId, changes }) =>
      queue('project.update', {
        projectId: id(projectId),
        changes: definedOnly({ ...changes, parentProjectId: opt(changes.parentProjectId) }),
      }),
    'projects.setCustomFields': (input) =>
      queue('project.setCustomFields', { ...input, projectId: id(input.projectId) }),
    'projects.createFolder': (input) =>
      create('project.create', (tempId) => ({
        type: 'folder' as const,
        tempId,
        input: definedOnly({ ...input, parentProjectId: opt(input.parentProjectId) }),
      })),
    'projects.create': (input) => {
      const made = create('project.create', (tempId) => ({
        type: 'project' as const,
        tempId,
        input: definedOnly({ ...input, parentProjectId: opt(input.parentProjectId) }),
      }));
      if (cache && !templatesOffered(cache))
        noteTriedTemplate(cache, at(), made.id, input.projectTemplateId, input.name);
      return made;
    },
    'members.add': (input) => queue('member.add', { ...input, projectId: id(input.projectId) }),
    // `hands` (what the change hands to the owner) is found when the change is applied.
    'members.setAccess': (input) =>
      queue('member.setAccess', { ...input, projectId: id(input.projectId), hands: NO_HANDS }),
    'members.remove': (input) =>
      queue('member.remove', { ...input, projectId: id(input.projectId), hands: NO_HANDS }),
  };
}

const NO_HANDS = { tasks: [], events: [], subprojects: [] };
