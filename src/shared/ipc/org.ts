import { z } from 'zod';
import { channel } from './channel';

/** Organization records the pickers and labels need, as cached. */
export const UserView = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
});
export type UserView = z.infer<typeof UserView>;

export const StatusView = z.object({
  id: z.string(),
  name: z.string(),
  /** True for a status that closes a task, when the service says so; null when not known. */
  closed: z.boolean().nullable(),
});
export type StatusView = z.infer<typeof StatusView>;

export const TaskTypeView = z.object({ id: z.string(), name: z.string() });
export type TaskTypeView = z.infer<typeof TaskTypeView>;

export const CustomFieldView = z.object({
  id: z.string(),
  name: z.string(),
  type: z.number().int(),
  access: z.number().int(),
  params: z.unknown(),
  sortPosition: z.number().int(),
});
export type CustomFieldView = z.infer<typeof CustomFieldView>;

/** A tag the cache has seen (the API offers no tag list); its name is null until one is known. */
export const TagView = z.object({ id: z.string(), name: z.string().nullable() });
export type TagView = z.infer<typeof TagView>;

/** A custom-field value beside its definition (null when the definition is not cached). */
export const CustomFieldValueView = z.object({
  fieldId: z.string(),
  definition: CustomFieldView.nullable(),
  value: z.unknown(),
});
export type CustomFieldValueView = z.infer<typeof CustomFieldValueView>;

const NoArg = z.object({}).strict();

export const orgReadChannels = {
  'org.users': channel(NoArg, z.array(UserView)),
  'org.statuses': channel(NoArg, z.array(StatusView)),
  'org.taskTypes': channel(NoArg, z.array(TaskTypeView)),
  'org.customFields': channel(NoArg, z.array(CustomFieldView)),
  'org.tags': channel(NoArg, z.array(TagView)),
};
