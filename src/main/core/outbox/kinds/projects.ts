import { z } from 'zod';
import type { ProjectBase } from '../../../../shared/api/projects';
import { ACCESS_LEVELS, memberEndpoints } from '../../../../shared/api/members';
import {
  FolderCreateInput,
  MemberAccessInput,
  MemberAddInput,
  MemberRemoveInput,
  ProjectChanges,
  ProjectCreateInput,
  ProjectCustomFieldsInput,
} from '../../../../shared/ipc/projects-write';
import type { ServiceClient } from '../../api/client';
import { RejectedError } from '../../api/errors';
import { OutboxError } from '../outbox';
import {
  applyChanges,
  changedFields,
  checkRange,
  clockOf,
  customFieldsKind,
  restoreReleased,
  stampedCreate,
  stampOf,
  TempId,
  tempKeys,
  type Kind,
  type KindDeps,
  listedLookUp,
} from './support';
import { projectEndpoints } from '../../../../shared/api/projects';

export const ProjectUpdatePayload = z.object({ projectId: z.string(), changes: ProjectChanges });
export const ProjectCreatePayload = z.discriminatedUnion('type', [
  z.object({ type: z.literal('folder'), tempId: TempId, input: FolderCreateInput }),
  z.object({ type: z.literal('project'), tempId: TempId, input: ProjectCreateInput }),
]);
const Reassigned = z.object({
  tasks: z.array(z.tuple([z.string(), z.string().nullable(), z.string().nullable()])),
  events: z.array(z.tuple([z.string(), z.string().nullable()])),
  subprojects: z.array(z.tuple([z.string(), z.string().nullable()])),
  member: z.record(z.string(), z.unknown()).nullable(),
});
type Reassigned = z.infer<typeof Reassigned>;

/**
 * A membership change that hands the user's items to the owner names them, so it is ordered
 * after every waiting change of those items and before every later one (rule 2): the service
 * reassigns what it holds when the change arrives.
 */
const Hands = z
  .object({ tasks: z.array(z.string()), events: z.array(z.string()), subprojects: z.array(z.string()) })
  .default({ tasks: [], events: [], subprojects: [] });
export const MemberAccessPayload = MemberAccessInput.extend({ hands: Hands });
export const MemberRemovePayload = MemberRemoveInput.extend({ hands: Hands });
type Hands = z.infer<typeof Hands>;

const handsKeys = (p: { projectId: string; hands: Hands }): string[] => [
  `project:${p.projectId}`,
  ...p.hands.tasks.map((id) => `task:${id}`),
  ...p.hands.events.map((id) => `event:${id}`),
  ...p.hands.subprojects.map((id) => `project:${id}`),
];

const handsOf = (moved: Omit<Reassigned, 'member'>): Hands => ({
  tasks: moved.tasks.map(([id]) => id),
  events: moved.events.map(([id]) => id),
  subprojects: moved.subprojects.map(([id]) => id),
});

declare module './support' {
  interface KindModules {
    projects: ReturnType<typeof projectKinds>;
  }
}

/**
 * Whether a listed project is a folder, as the item tells it: the live service's `systemType`
 * ("FOLDER" or "PROJECT"), else our service's `isFolder`; null when it tells neither. Read off
 * the raw item, whatever the list's schema makes of the two fields.
 */
export function listedAsFolder(item: object): boolean | null {
  const { systemType, isFolder } = item as { systemType?: unknown; isFolder?: unknown };
  if (typeof systemType === 'string') {
    const kind = systemType.toUpperCase();
    if (kind === 'FOLDER') return true;
    if (kind === 'PROJECT') return false;
  }
  return typeof isFolder === 'boolean' ? isFolder : null;
}

const ARCHIVED = 5;
const OPEN = 2;

export function projectKinds(deps: KindDeps) {
  const { cache } = deps;
  function record(id: string): Record<string, unknown> {
    const view = cache.projects.get(id);
    if (!view) throw new OutboxError('not-found', `Project ${id} is not in the cache`, 'projectId');
    return view;
  }

  function write(id: string, values: Record<string, unknown>): void {
    const view = cache.projects.get(id);
    if (!view) return;
    const { settings: _settings, ...rest } = view;
    cache.projects.codec.upsert({ ...rest, ...values } as typeof rest);
  }

  /** The service's rule: the user's items in the project go to the owner (or nobody). */
  function reassign(projectId: string, userId: string): Omit<Reassigned, 'member'> {
    const owner = (cache.projects.get(projectId)?.ownerUserId as string | null | undefined) ?? null;
    const to = owner && owner !== userId ? owner : null;
    const tasks = cache.tasks.withPersonInProject(projectId, userId);
    for (const t of tasks) {
      const { assignedToUserId: a, actionRequiredUserId: r } = t;
      cache.tasks.setPeople(t.id, a === userId ? to : a, r === userId ? to : r);
    }
    const events = cache.events.idsAssignedInProject(projectId, userId);
    for (const e of events) cache.events.setAssignee(e, to);
    const subprojects = cache.projects.childIdsOwnedBy(projectId, userId);
    for (const p of subprojects) cache.projects.setOwner(p, to);
    return {
      tasks: tasks.map((t) => [t.id, t.assignedToUserId, t.actionRequiredUserId]),
      events: events.map((e) => [e, userId]),
      subprojects: subprojects.map((p) => [p, userId]),
    };
  }

  function undoReassign(undo: Reassigned, projectId: string, userId: string): void {
    for (const [id, a, r] of undo.tasks) cache.tasks.setPeople(id, a, r);
    for (const [id, who] of undo.events) cache.events.setAssignee(id, who);
    for (const [id, who] of undo.subprojects) cache.projects.setOwner(id, who);
    if (undo.member) cache.projectParts.putMemberRow(undo.member);
    else cache.projectParts.deleteMember(projectId, userId);
  }

  const update: Kind<z.infer<typeof ProjectUpdatePayload>, void, 'project.update'> = {
    name: 'project.update',
    parse: (p) => ProjectUpdatePayload.parse(p),
    keysOf: (p) => [`project:${p.projectId}`, ...tempKeys('project', p.changes.parentProjectId)],
    // Names the project as the cache holds it (a pending rename shows), as a task's change does.
    describe: (p) => {
      const name = cache.projects.get(p.projectId)?.name;
      return `Edit project${name ? ` "${name}"` : ''} (${Object.keys(p.changes).join(', ')})`;
    },
    apply: (ctx, { projectId, changes }) => {
      const current = record(projectId);
      checkRange(current, changes);
      const { statusId, systemStatus, ...plain } = changes;
      const wanted: Record<string, unknown> = { ...plain };
      if (statusId !== undefined) {
        // statusId wins; the system status follows it: a closed status archives.
        if (current.isFolder)
          throw new OutboxError(
            'invalid-argument',
            'statusId: is not supported for folders',
            'changes.statusId',
          );
        const status = cache.org.statuses.all().find((s) => s.id === statusId);
        if (!status)
          throw new OutboxError('invalid-argument', `statusId: no status ${statusId}`, 'changes.statusId');
        Object.assign(wanted, {
          statusId,
          status: status.name,
          systemStatus: status.isClosed ? ARCHIVED : OPEN,
        });
      } else if (systemStatus !== undefined) wanted.systemStatus = systemStatus;
      const diff = changedFields(current, wanted);
      if (!applyChanges(ctx, 'project', projectId, diff, write)) return { noop: true };
      // Only what differs is sent (rule 8); a status counts as changed when anything it sets does.
      const sent: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(plain)) if (k in diff) sent[k] = v;
      if (statusId !== undefined && (diff.statusId || diff.status || diff.systemStatus))
        sent.statusId = statusId;
      else if (statusId === undefined && diff.systemStatus) sent.systemStatus = systemStatus;
      return { payload: { projectId, changes: sent } };
    },
    send: (client, { projectId, changes }) =>
      client.call(projectEndpoints.updateProject, {
        id: projectId,
        body: { userId: deps.userId, ...changes },
      }),
    fold: () => undefined,
    rollback: (ctx) => restoreReleased(ctx, 'project', write),
    // Its whole effect is its field claims: an undo while it waits withdraws it.
    withdrawable: () => true,
    merge: (a, b) => {
      const changes = { ...a.changes, ...b.changes };
      // statusId wins over systemStatus on the service: a later systemStatus must not be merged under it.
      if (a.changes.statusId !== undefined && b.changes.systemStatus !== undefined) return undefined;
      return { projectId: a.projectId, changes };
    },
  };

  const setCustomFields = customFieldsKind<
    z.infer<typeof ProjectCustomFieldsInput>,
    'project.setCustomFields'
  >({
    name: 'project.setCustomFields',
    entity: 'project',
    parse: (p) => ProjectCustomFieldsInput.parse(p),
    idOf: (p) => p.projectId,
    describe: 'Set project custom fields',
    record,
    write,
    send: (client, id, body) => client.call(projectEndpoints.setProjectCustomFields, { id, body }),
    userId: deps.userId,
  });

  /**
   * Rule 6's test of a project or folder create: the one of a list that the payload made (same
   * name and parent, the same kind where the item tells it, created after the send on the
   * service's clock; the earliest not taken by another create, nor by `taken`). Only what the
   * live service lists is compared: its items carry no `isFolder` (a `systemType` "FOLDER" or
   * "PROJECT" instead) and no creator. The look-up and the pull both ask it.
   */
  const projectCreated = stampedCreate<ProjectBase, z.infer<typeof ProjectCreatePayload>>(deps, {
    parse: (p) => ProjectCreatePayload.parse(p),
    momentOf: (x) => x.moment_created,
    matches: (x, p) => {
      const folder = listedAsFolder(x);
      return (
        x.name === p.input.name &&
        (x.parentProjectId || null) === (p.input.parentProjectId ?? null) &&
        (folder === null || folder === (p.type === 'folder'))
      );
    },
  });

  const create: Kind<z.infer<typeof ProjectCreatePayload>, ProjectBase, 'project.create'> = {
    name: 'project.create',
    parse: (p) => ProjectCreatePayload.parse(p),
    keysOf: (p) => [`project:${p.tempId}`, ...tempKeys('project', p.input.parentProjectId)],
    createdIdOf: (p) => p.tempId,
    describe: (p) => `Create ${p.type} "${p.input.name}"`,
    apply: (ctx, p) => {
      if (p.input.parentProjectId) record(p.input.parentProjectId);
      const inProgress = cache.org.statuses.all().find((s) => s.name === 'In Progress');
      const project = p.type === 'project' ? p.input : undefined;
      cache.projects.codec.upsert({
        id: p.tempId,
        name: p.input.name,
        description: '',
        startDate: project?.startDate ?? null,
        endDate: project?.endDate ?? null,
        estimate: null,
        moment_created: stampOf(ctx.now, clockOf(deps)),
        parentProjectId: p.input.parentProjectId ?? null,
        priority: 1,
        progress: null,
        status: inProgress?.name ?? 'In Progress',
        statusComments: '',
        systemStatus: OPEN,
        customFieldsData: {},
        isFolder: p.type === 'folder',
        color: p.input.color ?? null,
        health: null,
        ownerUserId: project?.projectOwnerUserId ?? deps.userId,
        deadline: project?.deadline ?? null,
        statusId: inProgress?.id ?? null,
      });
    },
    send: (client, p) =>
      p.type === 'folder'
        ? client.call(projectEndpoints.newFolder, { body: { ...p.input, createdByUserId: deps.userId } })
        : client.call(projectEndpoints.newProject, { body: { ...p.input, createdByUserId: deps.userId } }),
    fold: (ctx, p, result) => {
      // The create answers the whole project: the view becomes the service's, except fields
      // later local changes (still queued) hold.
      const local = cache.projects.get(p.tempId) as Record<string, unknown> | null;
      const kept = Object.fromEntries(
        [...ctx.pendingFields('project', p.tempId)].map((f) => [f, local?.[f]]),
      );
      cache.projects.codec.upsert({
        ...result,
        id: p.tempId,
        customFieldsData: local?.customFieldsData ?? {},
        parentProjectId: result.parentProjectId || null,
        ...kept,
      });
      return { realId: result.id };
    },
    lookUp: async (client, p, entry) => {
      const found = projectCreated.find(await client.call(projectEndpoints.projects), p, entry);
      return found ? { found: true, result: found } : { found: false };
    },
    rollback: (_ctx, p) => {
      cache.projects.delete([p.tempId]);
    },
  };

  const userOf = (userId: string) => cache.org.users.all().find((u) => u.id === userId);

  /**
   * A member change's label names the member and the project as the cache holds them, as a
   * project's or a CRM record's change does: two member changes waiting are told apart. A name
   * the cache no longer holds is left out.
   */
  const memberLabel = (verb: string, p: { projectId: string; userId: string }, preposition: string) => {
    const user = userOf(p.userId)?.name;
    const project = cache.projects.get(p.projectId)?.name;
    return `${verb}${user ? ` "${user}"` : ''}${project ? ` ${preposition} project "${project}"` : ''}`;
  };

  const accessName = (access: number | null): string | null =>
    access === null ? null : ACCESS_LEVELS[String(access) as keyof typeof ACCESS_LEVELS];

  /**
   * A membership write that names `expectAccess` (an undo's) is sent only while the member's
   * access on the service is still that. Already at the write's own `target` it is done (an
   * earlier attempt whose answer was lost). Anything else means someone changed the membership
   * since: the entry is refused with their value named, and nothing is sent over it.
   */
  async function stillAsExpected(
    client: ServiceClient,
    method: string,
    p: { projectId: string; userId: string; expectAccess?: number | null | undefined },
    target: number | null,
  ): Promise<'send' | 'done'> {
    if (p.expectAccess === undefined) return 'send';
    const listed = await client.call(memberEndpoints.projectUsers, { id: p.projectId });
    const now = listed.find((m) => m.id === p.userId)?.access ?? null;
    if (now === accessName(target)) return 'done';
    if (now === accessName(p.expectAccess)) return 'send';
    const who = userOf(p.userId)?.name ?? p.userId;
    throw new RejectedError(
      method,
      `/project/${p.projectId}/user/${p.userId}`,
      409,
      `Someone changed ${who}'s membership since (now ${now ?? 'not a member'}): not undone`,
    );
  }

  const memberView = (projectId: string, userId: string, access: number) => {
    const user = userOf(userId);
    return {
      project_id: projectId,
      user_id: userId,
      name: user?.name ?? userId,
      primary_email: user?.primaryEmail ?? '',
      access: ACCESS_LEVELS[String(access) as keyof typeof ACCESS_LEVELS],
      watch_all: 0,
    };
  };

  const addMember: Kind<z.infer<typeof MemberAddInput>, void, 'member.add'> = {
    name: 'member.add',
    parse: (p) => MemberAddInput.parse(p),
    keysOf: (p) => [`project:${p.projectId}`],
    describe: (p) => memberLabel('Add member', p, 'to'),
    apply: (_ctx, p) => {
      record(p.projectId);
      const before = cache.projectParts.memberRow(p.projectId, p.userId) ?? null;
      cache.projectParts.putMemberRow(memberView(p.projectId, p.userId, p.access));
      return { undo: { tasks: [], events: [], subprojects: [], member: before } satisfies Reassigned };
    },
    send: async (client, p) => {
      if ((await stillAsExpected(client, 'POST', p, p.access)) === 'done') return;
      await client.call(memberEndpoints.addProjectUser, {
        projectId: p.projectId,
        userId: p.userId,
        body: { userId: deps.userId, access: p.access },
      });
    },
    fold: () => undefined,
    rollback: (_ctx, p, undo) => undoReassign(Reassigned.parse(undo), p.projectId, p.userId),
  };

  const setAccess: Kind<z.infer<typeof MemberAccessPayload>, void, 'member.setAccess'> = {
    name: 'member.setAccess',
    parse: (p) => MemberAccessPayload.parse(p),
    keysOf: handsKeys,
    describe: (p) => memberLabel('Change access of member', p, 'in'),
    apply: (_ctx, p) => {
      record(p.projectId);
      const before = cache.projectParts.memberRow(p.projectId, p.userId);
      if (!before)
        throw new OutboxError('not-found', `User ${p.userId} is not a member of this project`, 'userId');
      cache.projectParts.putMemberRow({
        ...before,
        access: ACCESS_LEVELS[String(p.access) as keyof typeof ACCESS_LEVELS],
      });
      const moved =
        p.access < 0 ? reassign(p.projectId, p.userId) : { tasks: [], events: [], subprojects: [] };
      return {
        payload: { ...p, hands: handsOf(moved) },
        undo: { ...moved, member: before } satisfies Reassigned,
      };
    },
    send: async (client, p) => {
      if ((await stillAsExpected(client, 'PUT', p, p.access)) === 'done') return;
      await client.call(memberEndpoints.updateProjectUser, {
        projectId: p.projectId,
        userId: p.userId,
        body: { userId: deps.userId, access: p.access },
      });
    },
    fold: () => undefined,
    rollback: (_ctx, p, undo) => undoReassign(Reassigned.parse(undo), p.projectId, p.userId),
  };

  const removeMember: Kind<z.infer<typeof MemberRemovePayload>, void, 'member.remove'> = {
    name: 'member.remove',
    parse: (p) => MemberRemovePayload.parse(p),
    keysOf: handsKeys,
    describe: (p) => memberLabel('Remove member', p, 'from'),
    apply: (_ctx, p) => {
      const project = record(p.projectId);
      if (project.ownerUserId === p.userId) {
        throw new OutboxError(
          'invalid-argument',
          'cannot remove the project owner; change the owner first',
          'userId',
        );
      }
      const before = cache.projectParts.memberRow(p.projectId, p.userId);
      if (!before)
        throw new OutboxError('not-found', `User ${p.userId} is not a member of this project`, 'userId');
      const moved = reassign(p.projectId, p.userId);
      cache.projectParts.deleteMember(p.projectId, p.userId);
      return {
        payload: { ...p, hands: handsOf(moved) },
        undo: { ...moved, member: before } satisfies Reassigned,
      };
    },
    send: async (client, p) => {
      if ((await stillAsExpected(client, 'DELETE', p, null)) === 'done') return;
      await client.call(memberEndpoints.removeProjectUser, {
        projectId: p.projectId,
        userId: p.userId,
        body: { userId: deps.userId },
      });
    },
    fold: () => undefined,
    // Removing twice is refused (not a member): after an unknown outcome, look first.
    lookUp: async (client, p) =>
      (await client.call(memberEndpoints.projectUsers, { id: p.projectId })).some((m) => m.id === p.userId)
        ? { found: false }
        : { found: true, result: undefined },
    rollback: (_ctx, p, undo) => undoReassign(Reassigned.parse(undo), p.projectId, p.userId),
  };

  return {
    kinds: [update, setCustomFields, create, addMember, setAccess, removeMember],
    lookUps: [listedLookUp('project', 'project.create', projectCreated.createdAmong)],
  };
}
