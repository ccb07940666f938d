import type { ServiceContext } from '../context';
import { notFound } from '../http/errors';
import type { Router } from '../http/router';

/** Organization reads a client needs for pickers; GET /tags and /project-templates are extensions. */
export function orgRoutes(r: Router, ctx: ServiceContext): void {
  r.get('/users', { handle: () => ({ json: ctx.org.users() }) });
  r.get('/user/:id', {
    handle: ({ params }) => {
      const user = ctx.org.user(params['id']);
      if (!user) throw notFound('user', params['id']);
      return { json: user };
    },
  });
  r.get('/statuses', { handle: () => ({ json: ctx.org.statuses() }) });
  r.get('/task-types', { handle: () => ({ json: ctx.org.taskTypes() }) });
  r.get('/tags', { handle: () => ({ json: ctx.org.tags() }) });
  r.get('/project-templates', { handle: () => ({ json: ctx.org.templates() }) });
}
