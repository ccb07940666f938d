import {
  CreateDependencyBody,
  DEPENDENCY_KINDS,
  DeleteDependencyBody,
  type Dependency,
  type DependencyKind,
} from '../../shared/api/dependencies';
import type { ServiceContext } from '../context';
import type { DependencyRow } from '../db/dependencies';
import { badRequest, notFound } from '../http/errors';
import type { Router } from '../http/router';

function exists(ctx: ServiceContext, kind: DependencyKind, id: string): boolean {
  if (kind === 'Task') return ctx.tasks.row(id) !== undefined;
  if (kind === 'Event') return ctx.events.row(id) !== undefined;
  return ctx.projects.row(id) !== undefined;
}

export function dependencyRoutes(r: Router, ctx: ServiceContext): void {
  for (const kind of DEPENDENCY_KINDS) {
    r.get(`/${kind.toLowerCase()}/:id/dependencies`, {
      handle: ({ params }) => {
        if (!exists(ctx, kind, params['id'])) throw notFound(kind.toLowerCase(), params['id']);
        return { json: ctx.dependencies.of(kind, params['id']) };
      },
    });
  }

  r.post('/dependencies', {
    body: CreateDependencyBody,
    handle: ({ body }) => {
      ctx.requireUser('createdByUserId', body.createdByUserId);
      // The schema guarantees exactly one id on each side.
      const side = (role: 'predecessor' | 'successor') => {
        const kind = DEPENDENCY_KINDS.find((k) => body[`${role}${k}Id`] != null)!;
        const id = body[`${role}${kind}Id`]!;
        if (!exists(ctx, kind, id)) {
          throw badRequest(`${role}${kind}Id`, `no ${kind.toLowerCase()} with id ${JSON.stringify(id)}`);
        }
        return { kind, id };
      };
      const pred = side('predecessor');
      const succ = side('successor');
      if (pred.kind === succ.kind && pred.id === succ.id) {
        throw badRequest(`successor${succ.kind}Id`, 'an item cannot depend on itself');
      }
      const row: DependencyRow = {
        id: ctx.newId(),
        type: body.type,
        predecessor_kind: pred.kind,
        predecessor_id: pred.id,
        successor_kind: succ.kind,
        successor_id: succ.id,
        created_by_user_id: body.createdByUserId,
        moment_created: ctx.now(),
      };
      if (ctx.dependencies.exists(row))
        throw badRequest(`successor${succ.kind}Id`, 'this dependency already exists');
      ctx.dependencies.insert(row);
      // Both spellings of the linked ids: the parameter list's and the sample's (task1Id, event2Id).
      const json: Dependency = {
        id: row.id,
        type: row.type,
        [`predecessor${pred.kind}Id`]: pred.id,
        [`successor${succ.kind}Id`]: succ.id,
        [`${pred.kind.toLowerCase()}1Id`]: pred.id,
        [`${succ.kind.toLowerCase()}2Id`]: succ.id,
      };
      return { json };
    },
  });

  r.delete('/dependency/:id', {
    body: DeleteDependencyBody,
    handle: ({ params, body }) => {
      if (!ctx.dependencies.row(params['id'])) throw notFound('dependency', params['id']);
      if (body.userId) ctx.requireUser('userId', body.userId);
      ctx.dependencies.delete(params['id']);
      return 'OK';
    },
  });
}
