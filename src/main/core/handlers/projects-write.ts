import type { Cache } from '../cache/cache';
import type { AccountOutbox } from '../outbox/account-outbox';
import { noteTriedTemplate, templatesOffered, templateWorked } from '../sync/project-templates';
import { stamp } from '../sync/context';
import type { HandlerMap } from './types';
import type { ProjectChanges } from '../../../shared/ipc/projects-write';
import { ACCESS_LEVELS } from '../../../shared/api/members';
import { definedOnly, replacedOf, withReplaced, writer, type Queued } from './write';

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
    'projects.update': ({ projectId, changes }) => {
      const real = id(projectId);
      const before = cache?.projects.get(real);
      const queued = queue('project.update', {
        projectId: real,
        changes: definedOnly({ ...changes, parentProjectId: opt(changes.parentProjectId) }),
      });
      return withReplaced(queued, replacedByProjectUpdate(before, cache?.projects.get(real), changes));
    },
    'projects.setCustomFields': (input) => {
      const real = id(input.projectId);
      const before = cache?.projects.get(real)?.customFieldsData;
      const queued = queue('project.setCustomFields', { ...input, projectId: real });
      const after = cache?.projects.get(real)?.customFieldsData;
      // Each field it changed, with the value it replaced (null: the field was empty): its undo.
      const fields = input.values.map((v) => v.id);
      return withReplaced(queued, replacedOf(before ?? {}, after, fields));
    },
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
    // Each answers the access the user had before (`replaced.access`, null: not a member), from
    // which the renderer builds its undo.
    'members.add': (input) => {
      const real = id(input.projectId);
      const was = accessOf(cache, real, input.userId);
      return withAccess(queue('member.add', { ...input, projectId: real }), was, input.access);
    },
    // `hands` (what the change hands to the owner) is found when the change is applied.
    'members.setAccess': (input) => {
      const real = id(input.projectId);
      const was = accessOf(cache, real, input.userId);
      const queued = queue('member.setAccess', { ...input, projectId: real, hands: NO_HANDS });
      return withAccess(queued, was, input.access);
    },
    'members.remove': (input) => {
      const real = id(input.projectId);
      const was = accessOf(cache, real, input.userId);
      const queued = queue('member.remove', { ...input, projectId: real, hands: NO_HANDS });
      return withAccess(queued, was, null);
    },
  };
}

const NO_HANDS = { tasks: [], events: [], subprojects: [] };

/**
 * A member's access level as requests give it (-10 … 3), read from the cache's row (which keeps
 * its name, "Standard"); null when the user is not a member, undefined when unknown.
 */
function accessOf(cache: Cache | undefined, projectId: string, userId: string): number | null | undefined {
  if (!cache) return undefined;
  const row = cache.projectParts.memberRow(projectId, userId);
  if (!row) return null;
  const level = Object.entries(ACCESS_LEVELS).find(([, name]) => name === row.access)?.[0];
  return level === undefined ? undefined : Number(level);
}

/** A membership write's answer with the access it replaced, when it changed it. */
function withAccess<Q extends Queued>(queued: Q, was: number | null | undefined, now: number | null) {
  return withReplaced(queued, was === undefined || was === now ? undefined : { access: was });
}

/**
 * What a project update replaced, as an update that puts it back (its undo): each field it
 * changed with the value the cache held before. A status answers its `statusId` (the system
 * status follows it); a project moved from the root answers no parent (the service has no
 * "move to the root").
 */
export function replacedByProjectUpdate(
  before: Readonly<Record<string, unknown>> | null | undefined,
  after: Readonly<Record<string, unknown>> | null | undefined,
  changes: ProjectChanges,
): Record<string, unknown> | undefined {
  const fields = Object.keys(changes).filter((f) => f !== 'statusId' && f !== 'systemStatus');
  const replaced = { ...replacedOf(before, after, fields) };
  if (replaced.parentProjectId === null) delete replaced.parentProjectId;
  if ('statusId' in changes) {
    const was = replacedOf(before, after, ['statusId'])?.statusId;
    if (typeof was === 'string') replaced.statusId = was;
  } else if ('systemStatus' in changes) {
    const was = replacedOf(before, after, ['systemStatus'])?.systemStatus;
    if (was === 2 || was === 5) replaced.systemStatus = was;
  }
  return Object.keys(replaced).length ? replaced : undefined;
}
