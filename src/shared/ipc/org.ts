import { z } from 'zod';
import { channel, type ResourceSpec } from './channel';
import { CustomFieldDefinition } from '../api/custom-fields';
import { Status, Tag, TaskType, User } from '../api/org';
import { lazySchema } from '../lazy-schema';

/** A custom-field value beside its definition (null when the definition is not cached). */
export const CustomFieldValueView = lazySchema(() =>
  z.object({
    fieldId: z.string(),
    definition: CustomFieldDefinition.nullable(),
    value: z.unknown(),
  }),
);
export type CustomFieldValueView = z.infer<typeof CustomFieldValueView>;

const NoArg = lazySchema(() => z.object({}).strict());

/** The resources this domain is the home of (see `RESOURCES` in `../entities.ts`). */
export const orgResources = {
  customField: { noun: 'a custom field', cacheEntities: ['customFields'], outbox: false },
  user: { noun: 'a user', cacheEntities: ['users'], outbox: false },
  status: { noun: 'a status', cacheEntities: ['statuses'], outbox: false },
  taskType: { noun: 'a task type', cacheEntities: ['taskTypes'], outbox: false },
  tag: { noun: 'a tag', cacheEntities: ['tags'], outbox: false },
  /** Read into the project views (a change of them is a change of `projects`). */
  projectTemplate: { noun: 'a project template', cacheEntities: [], outbox: false },
} as const satisfies Record<string, ResourceSpec>;

export const orgReadChannels = {
  'org.users': channel(
    () => NoArg,
    () => z.array(User),
  ),
  'org.statuses': channel(
    () => NoArg,
    () => z.array(Status),
  ),
  'org.taskTypes': channel(
    () => NoArg,
    () => z.array(TaskType),
  ),
  'org.customFields': channel(
    () => NoArg,
    () => z.array(CustomFieldDefinition),
  ),
  'org.tags': channel(
    () => NoArg,
    () => z.array(Tag),
  ),
};
