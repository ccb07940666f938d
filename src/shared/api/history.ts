import { z } from 'zod';
import { LocalTimestamp } from './common';
import { endpoint, endpoints } from './endpoint';
import { lazySchema } from '../lazy-schema';

/**
 * History event types this service records, one per project field an update can change
 * (the spec shows only STATUS_COMMENTS_UPDATED).
 */
export const PROJECT_HISTORY_TYPES = [
  'PROJECT_CREATED',
  'NAME_UPDATED',
  'DESCRIPTION_UPDATED',
  'COLOR_UPDATED',
  'HEALTH_UPDATED',
  'STATUS_COMMENTS_UPDATED',
  'PARENT_UPDATED',
  'OWNER_UPDATED',
  'START_DATE_UPDATED',
  'END_DATE_UPDATED',
  'PRIORITY_UPDATED',
  'ESTIMATE_UPDATED',
  'PROGRESS_UPDATED',
  'SYSTEM_STATUS_UPDATED',
  'STATUS_UPDATED',
  'CUSTOM_FIELD_UPDATED',
  'USER_ADDED',
  'USER_ACCESS_UPDATED',
  'USER_REMOVED',
] as const;
export type ProjectHistoryType = (typeof PROJECT_HISTORY_TYPES)[number];

export const ProjectHistoryEvent = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    eventType: z.string(),
    momentCreated: LocalTimestamp,
    userId: z.string(),
    params: z.looseObject({ newValue: z.unknown(), oldValue: z.unknown() }),
  }),
);
export type ProjectHistoryEvent = z.infer<typeof ProjectHistoryEvent>;
export const ProjectHistoryResponse = lazySchema(() => z.array(ProjectHistoryEvent));

/** The service's endpoints of a project's history. */
export const historyEndpoints = endpoints({
  /**
   * The spec's path, then the `/project/{id}/history` one client of the live service calls (which
   * one the live service answers is not settled); a 404 on both is the caller's to read.
   */
  projectHistory: endpoint({
    method: 'GET',
    path: '/projects/{id}/history',
    fallbackPaths: ['/project/{id}/history'],
    read: 'list',
    response: ProjectHistoryResponse,
  }),
});
