import { z } from 'zod';

/**
 * Organization reads: users, statuses, task types, tags. The organization set-up itself comes
 * from the seed; the API cannot write it. GET /tags is an extension (not in the spec).
 */
export const User = z.looseObject({
  id: z.string(),
  name: z.string(),
  primaryEmail: z.string(),
});
export type User = z.infer<typeof User>;
export const UsersResponse = z.array(User);

/** A task or project status; `isClosed` says whether it closes what it is set on. */
export const Status = z.looseObject({
  id: z.string(),
  name: z.string(),
  systemStatus: z.number().int(),
  isClosed: z.boolean(),
});
export type Status = z.infer<typeof Status>;
export const StatusesResponse = z.array(Status);

export const TaskType = z.looseObject({ id: z.string(), name: z.string() });
export type TaskType = z.infer<typeof TaskType>;
export const TaskTypesResponse = z.array(TaskType);

export const Tag = z.looseObject({ id: z.string(), name: z.string(), color: z.number().int().nullable() });
export type Tag = z.infer<typeof Tag>;
export const TagsResponse = z.array(Tag);

/** Task `systemStatus` codes this service uses (the spec does not show them). */
export const TASK_SYSTEM_STATUS = { new: 1, inProgress: 2, onHold: 3, done: 4, cancelled: 5 } as const;
/** Project `systemStatus`: 2 open, 5 archived. */
export const PROJECT_SYSTEM_STATUS = { open: 2, archived: 5 } as const;

/** Extension: GET /project-templates, the `projectTemplateId` values new-project accepts. */
export const ProjectTemplate = z.looseObject({ id: z.string(), name: z.string() });
export type ProjectTemplate = z.infer<typeof ProjectTemplate>;
export const ProjectTemplatesResponse = z.array(ProjectTemplate);
