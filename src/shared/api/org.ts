import { z } from 'zod';
import { orDefault } from './common';
import { endpoint, endpoints } from './endpoint';
import { lazySchema } from '../lazy-schema';

/**
 * Organization reads: users, statuses, task types, tags. The organization set-up itself comes
 * from the seed; the API cannot write it. GET /tags is an extension (not in the spec).
 */
export const User = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    /** GoodDay's saved user lists carry it; a user without one reads as ''. */
    primaryEmail: orDefault(z.string(), () => ''),
  }),
);
export type User = z.infer<typeof User>;
export const UsersResponse = lazySchema(() => z.array(User));

/**
 * The `systemStatus` codes that close what they are set on, for a status whose answer does not
 * say (`isClosed` is our service's field; GoodDay's status list has no open/closed flag). Our
 * service numbers its system statuses 1 new, 2 in progress, 3 on hold, 4 done, 5 cancelled; the
 * spec gives projects 2 open and 5 archived; GoodDay's closed ones are Closed/Archived and
 * Cancelled. Taken as closed: 4 and above. An assumption where the live numbering is not known
 * (see the README, "Against GoodDay's live service").
 */
export const FIRST_CLOSED_SYSTEM_STATUS = 4;

/** Whether a status closes what it is set on: its own flag, else derived from `systemStatus`. */
export function statusIsClosed(status: {
  systemStatus: number;
  isClosed?: boolean | null | undefined;
}): boolean {
  return status.isClosed ?? status.systemStatus >= FIRST_CLOSED_SYSTEM_STATUS;
}

/** A task or project status; `isClosed` says whether it closes what it is set on. */
export const Status = lazySchema(() =>
  z
    .looseObject({
      id: z.string(),
      name: z.string(),
      systemStatus: z.number().int(),
      /** Our service's flag; absent from GoodDay's answers, then derived from `systemStatus`. */
      isClosed: z.boolean().nullish(),
    })
    .transform((s): typeof s & { isClosed: boolean } => ({ ...s, isClosed: statusIsClosed(s) })),
);
export type Status = z.output<typeof Status>;
export const StatusesResponse = lazySchema(() => z.array(Status));

export const TaskType = lazySchema(() => z.looseObject({ id: z.string(), name: z.string() }));
export type TaskType = z.infer<typeof TaskType>;
export const TaskTypesResponse = lazySchema(() => z.array(TaskType));

export const Tag = lazySchema(() =>
  z.looseObject({ id: z.string(), name: z.string(), color: z.number().int().nullable() }),
);
export type Tag = z.infer<typeof Tag>;
export const TagsResponse = lazySchema(() => z.array(Tag));

/** Task `systemStatus` codes this service uses (the spec does not show them). */
export const TASK_SYSTEM_STATUS = { new: 1, inProgress: 2, onHold: 3, done: 4, cancelled: 5 } as const;
/** Project `systemStatus`: 2 open, 5 archived. */
export const PROJECT_SYSTEM_STATUS = { open: 2, archived: 5 } as const;

/** Extension: GET /project-templates, the `projectTemplateId` values new-project accepts. */
export const ProjectTemplate = lazySchema(() => z.looseObject({ id: z.string(), name: z.string() }));
export type ProjectTemplate = z.infer<typeof ProjectTemplate>;
export const ProjectTemplatesResponse = lazySchema(() => z.array(ProjectTemplate));

/**
 * The service's endpoints of the organization. Those marked `offered` are not in the spec (or
 * not on the live service: tags, project templates): a 404 or 405 answers null.
 */
export const orgEndpoints = endpoints({
  users: endpoint({ method: 'GET', path: '/users', read: 'list', response: UsersResponse, offered: true }),
  user: endpoint({ method: 'GET', path: '/user/{id}', read: 'item', response: User, offered: true }),
  statuses: endpoint({
    method: 'GET',
    path: '/statuses',
    read: 'list',
    response: StatusesResponse,
    offered: true,
  }),
  taskTypes: endpoint({
    method: 'GET',
    path: '/task-types',
    read: 'list',
    response: TaskTypesResponse,
    offered: true,
  }),
  tags: endpoint({ method: 'GET', path: '/tags', read: 'list', response: TagsResponse, offered: true }),
  /** The `projectTemplateId` values new-project accepts. */
  projectTemplates: endpoint({
    method: 'GET',
    path: '/project-templates',
    read: 'list',
    response: ProjectTemplatesResponse,
    offered: true,
  }),
});
