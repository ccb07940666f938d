import type { ProjectHistoryEvent, ProjectHistoryType } from '../../shared/api/history';
import type { ServiceContext } from '../context';
import { notFound } from '../http/errors';
import type { Router } from '../http/router';

/** Records one project change; values are stored as JSON so their types survive. */
export function recordHistory(
  ctx: ServiceContext,
  projectId: string,
  userId: string,
  eventType: ProjectHistoryType,
  newValue: unknown,
  oldValue: unknown,
): void {
  ctx.projects.addHistory({
    id: ctx.newId(),
    project_id: projectId,
    event_type: eventType,
    moment_created: ctx.now(),
    user_id: userId,
    new_value: JSON.stringify(newValue ?? null),
    old_value: JSON.stringify(oldValue ?? null),
  });
}

export function historyRoutes(r: Router, ctx: ServiceContext): void {
  const spec = {
    handle: ({ params }: { params: Record<string, string> }) => {
      const id = params['id'];
      if (!ctx.projects.row(id)) throw notFound('project', id);
      const json: ProjectHistoryEvent[] = ctx.projects.history(id).map((h) => ({
        id: h.id,
        eventType: h.event_type,
        momentCreated: h.moment_created,
        userId: h.user_id,
        params: {
          newValue: h.new_value === null ? null : (JSON.parse(h.new_value) as unknown),
          oldValue: h.old_value === null ? null : (JSON.parse(h.old_value) as unknown),
        },
      }));
      return { json };
    },
  };
  // The spec writes the path with `projects`; the singular form is answered too.
  r.get('/projects/:id/history', spec);
  r.get('/project/:id/history', spec);
}
