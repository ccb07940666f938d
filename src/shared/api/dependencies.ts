import { z } from 'zod';
import { Id, withAliases } from './common';
import { endpoint, endpoints, paramTypes } from './endpoint';
import { lazySchema } from '../lazy-schema';

export const DEPENDENCY_TYPES = { finishToStart: 5, startToStart: 6, finishToFinish: 7 } as const;
export const DEPENDENCY_KINDS = ['Task', 'Event', 'Project'] as const;
export type DependencyKind = (typeof DEPENDENCY_KINDS)[number];

const linkIds = {
  predecessorTaskId: z.string().optional(),
  predecessorEventId: z.string().optional(),
  predecessorProjectId: z.string().optional(),
  successorTaskId: z.string().optional(),
  successorEventId: z.string().optional(),
  successorProjectId: z.string().optional(),
};

/** A dependency: exactly one predecessor id and one successor id have a value. */
export const Dependency = lazySchema(() =>
  z.looseObject({ id: z.string(), type: z.number().int(), ...linkIds }),
);
export type Dependency = z.infer<typeof Dependency>;

/** GET /task|event|project/{id}/dependencies */
export const DependenciesResponse = lazySchema(() =>
  z.looseObject({
    successors: z.array(Dependency),
    predecessors: z.array(Dependency),
  }),
);
export type DependenciesResponse = z.infer<typeof DependenciesResponse>;

/** `task1Id` = predecessorTaskId, `event2Id` = successorEventId, and so on. */
const NUMBERED_ALIASES = Object.fromEntries(
  DEPENDENCY_KINDS.flatMap((kind) => [
    [`${kind.toLowerCase()}1Id`, `predecessor${kind}Id`],
    [`${kind.toLowerCase()}2Id`, `successor${kind}Id`],
  ]),
);

/**
 * POST /dependencies. The spec's sample names the items `task1Id`/`event2Id` (1 = predecessor,
 * 2 = successor); both spellings are accepted. Exactly one predecessor and one successor.
 */
export const CreateDependencyBody = lazySchema(() =>
  withAliases(
    z
      .object({
        type: z.union([z.literal(5), z.literal(6), z.literal(7)], { message: 'must be 5, 6 or 7' }),
        createdByUserId: Id,
        predecessorTaskId: Id.nullish(),
        predecessorEventId: Id.nullish(),
        predecessorProjectId: Id.nullish(),
        successorTaskId: Id.nullish(),
        successorEventId: Id.nullish(),
        successorProjectId: Id.nullish(),
      })
      .superRefine((v, ctx) => {
        for (const role of ['predecessor', 'successor'] as const) {
          const given = DEPENDENCY_KINDS.filter((k) => v[`${role}${k}Id`] != null);
          if (given.length !== 1) {
            ctx.addIssue({
              code: 'custom',
              path: [`${role}TaskId`],
              message: `exactly one of ${role}TaskId, ${role}EventId, ${role}ProjectId is required`,
            });
          }
        }
      }),
    NUMBERED_ALIASES,
  ),
);
export type CreateDependencyBody = z.input<typeof CreateDependencyBody>;

/** Extension: DELETE /dependency/{id} may name the acting user. */
export const DeleteDependencyBody = lazySchema(() => z.object({ userId: Id.optional() }));

/** POST /dependencies answer: `{id, type}` plus the two linked item ids (both spellings). */
export const CreateDependencyResponse = Dependency;

/** The items a dependency list is read for, as its path names them. */
export type DependencyItemKind = 'task' | 'event' | 'project';

/** The service's endpoints of dependencies. */
export const dependencyEndpoints = endpoints({
  /** GET /task|event|project/{id}/dependencies */
  dependencies: endpoint({
    method: 'GET',
    path: '/{kind}/{id}/dependencies',
    params: paramTypes<{ kind: DependencyItemKind; id: string }>(),
    read: 'item',
    response: DependenciesResponse,
  }),
  createDependency: endpoint({
    method: 'POST',
    path: '/dependencies',
    read: 'item',
    body: CreateDependencyBody,
    response: CreateDependencyResponse,
  }),
  deleteDependency: endpoint({ method: 'DELETE', path: '/dependency/{id}', read: 'none' }),
});
