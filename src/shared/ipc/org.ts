import { z } from 'zod';
import { channel } from './channel';
import { CustomFieldDefinition } from '../api/custom-fields';
import { Status, Tag, TaskType, User } from '../api/org';

/** A custom-field value beside its definition (null when the definition is not cached). */
export const CustomFieldValueView = z.object({
  fieldId: z.string(),
  definition: CustomFieldDefinition.nullable(),
  value: z.unknown(),
});
export type CustomFieldValueView = z.infer<typeof CustomFieldValueView>;

const NoArg = z.object({}).strict();

export const orgReadChannels = {
  'org.users': channel(NoArg, z.array(User)),
  'org.statuses': channel(NoArg, z.array(Status)),
  'org.taskTypes': channel(NoArg, z.array(TaskType)),
  'org.customFields': channel(NoArg, z.array(CustomFieldDefinition)),
  'org.tags': channel(NoArg, z.array(Tag)),
};
