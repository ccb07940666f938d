import { z } from 'zod';
import { Color, DateString, Id, Title, endBeforeStart, endNotBeforeStart } from '../api/common';
import { ProjectUpdateFields } from '../api/projects';
import { channel } from './channel';
import { CustomFieldValue, CreateResult, WriteResult } from './tasks-write';
import { lazySchema } from '../lazy-schema';

/** Every field of the update-project operation but the acting user. */
export const ProjectChanges = lazySchema(() => ProjectUpdateFields.strict());
export type ProjectChanges = z.infer<typeof ProjectChanges>;

/** A change that sets both dates is checked here; one that sets a single date by the core, against the cached other (`checkRange`). */
export const ProjectUpdateInput = lazySchema(() =>
  z
    .object({
      projectId: Id,
      changes: ProjectChanges.refine(endNotBeforeStart, endBeforeStart()),
    })
    .strict(),
);
export const ProjectCustomFieldsInput = lazySchema(() =>
  z
    .object({
      projectId: Id,
      values: z.array(CustomFieldValue).min(1, 'must name at least one field').max(200),
    })
    .strict(),
);
export const FolderCreateInput = lazySchema(() =>
  z.object({ name: Title, parentProjectId: Id.optional(), color: Color.optional() }).strict(),
);
export const ProjectCreateInput = lazySchema(() =>
  z
    .object({
      name: Title,
      projectTemplateId: Id,
      parentProjectId: Id.optional(),
      color: Color.optional(),
      projectOwnerUserId: Id.optional(),
      startDate: DateString.optional(),
      endDate: DateString.optional(),
      deadline: DateString.optional(),
    })
    .strict()
    .refine(endNotBeforeStart, endBeforeStart()),
);
/**
 * The access a member must still have on the service for a membership write to be sent (null:
 * not a member). An undo sets it to what the change it takes back set: when someone changed the
 * membership since, the write is refused as a conflict and shown in Changes, never sent over
 * their change.
 */
const ExpectAccess = lazySchema(() =>
  z.union([z.literal(-10), z.literal(-5), z.literal(1), z.literal(2), z.literal(3), z.null()]).optional(),
);
export const MemberAddInput = lazySchema(() =>
  z
    .object({
      projectId: Id,
      userId: Id,
      access: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      expectAccess: ExpectAccess,
    })
    .strict(),
);
export const MemberAccessInput = lazySchema(() =>
  z
    .object({
      projectId: Id,
      userId: Id,
      access: z.union([z.literal(-10), z.literal(-5), z.literal(1), z.literal(2), z.literal(3)], {
        message: 'must be -10, -5, 1, 2 or 3',
      }),
      expectAccess: ExpectAccess,
    })
    .strict(),
);
export const MemberRemoveInput = lazySchema(() =>
  z.object({ projectId: Id, userId: Id, expectAccess: ExpectAccess }).strict(),
);

export const projectsWriteChannels = {
  'projects.update': channel(
    () => ProjectUpdateInput,
    () => WriteResult,
  ),
  'projects.setCustomFields': channel(
    () => ProjectCustomFieldsInput,
    () => WriteResult,
  ),
  'projects.createFolder': channel(
    () => FolderCreateInput,
    () => CreateResult,
  ),
  'projects.create': channel(
    () => ProjectCreateInput,
    () => CreateResult,
  ),
  'members.add': channel(
    () => MemberAddInput,
    () => WriteResult,
  ),
  'members.setAccess': channel(
    () => MemberAccessInput,
    () => WriteResult,
  ),
  'members.remove': channel(
    () => MemberRemoveInput,
    () => WriteResult,
  ),
};
