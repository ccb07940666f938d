import {
  CreateEventBody,
  DeleteEventBody,
  EventsQuery,
  PERSONAL_EVENT_TYPES,
  PROJECT_EVENT_TYPES,
  SINGLE_DAY_EVENT_TYPES,
} from '../../shared/api/events';
import type { ServiceContext } from '../context';
import type { EventRow } from '../db/events';
import { badRequest, notFound } from '../http/errors';
import type { Router } from '../http/router';

export function eventRoutes(r: Router, ctx: ServiceContext): void {
  r.get('/events', {
    query: EventsQuery,
    handle: ({ query }) => ({ json: ctx.events.list(query.startDate, query.endDate, query.eventTypes) }),
  });

  r.get('/event/:id', {
    handle: ({ params }) => {
      const event = ctx.events.get(params['id']);
      if (!event) throw notFound('event', params['id']);
      return { json: event };
    },
  });

  /**
   * Rules per type (the schema checks presence): project events name an existing project;
   * personal events an existing user; a milestone is one day, so an endDate other than its
   * startDate is refused; company events belong to no project or user.
   */
  r.post('/events', {
    body: CreateEventBody,
    handle: ({ body }) => {
      ctx.requireUser('createdByUserId', body.createdByUserId);
      const isProject = PROJECT_EVENT_TYPES.includes(body.eventType);
      const isPersonal = PERSONAL_EVENT_TYPES.includes(body.eventType);
      const single = SINGLE_DAY_EVENT_TYPES.includes(body.eventType);
      if (single && body.endDate != null && body.endDate !== body.startDate) {
        throw badRequest('endDate', `${body.eventType} is a single-day event`);
      }
      if (body.projectId != null) {
        if (!isProject) throw badRequest('projectId', `is not used by ${body.eventType} events`);
        const project = ctx.projects.row(body.projectId);
        if (!project) throw badRequest('projectId', `no project with id ${JSON.stringify(body.projectId)}`);
      }
      if (body.userId != null) {
        if (!isPersonal) throw badRequest('userId', `is not used by ${body.eventType} events`);
        ctx.requireUser('userId', body.userId);
      }
      if (body.assignedToUserId != null) ctx.requireUser('assignedToUserId', body.assignedToUserId);
      const row: EventRow = {
        id: ctx.newId(),
        event_type: body.eventType,
        name: body.name,
        notes: body.notes ?? null,
        start_date: body.startDate,
        end_date: single ? null : (body.endDate ?? null),
        user_id: body.userId ?? null,
        project_id: body.projectId ?? null,
        assigned_to_user_id: body.assignedToUserId ?? null,
        created_by_user_id: body.createdByUserId,
        moment_created: ctx.now(),
      };
      ctx.events.insert(row);
      return { json: ctx.events.toEvent(row) };
    },
  });

  r.delete('/event/:id', {
    body: DeleteEventBody,
    handle: ({ params, body }) => {
      if (!ctx.events.row(params['id'])) throw notFound('event', params['id']);
      if (body.userId) ctx.requireUser('userId', body.userId);
      ctx.events.delete(params['id']);
      return 'OK';
    },
  });
}
