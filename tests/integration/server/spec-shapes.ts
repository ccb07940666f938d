import { z } from 'zod';
import { CustomFieldsData, DateString, LocalTimestamp } from '../../../src/shared/api/common';
import { WORK_ITEMS } from '../../../src/shared/api/projects';
import { EVENT_TYPES, SINGLE_DAY_EVENT_TYPES, type EventType } from '../../../src/shared/api/events';

/**
 * The spec's resource tables (shared/spec/work-management-api-2.0.md, "Resources and their
 * fields") as strict schemas: every field of a table must be present with the table's type.
 * `src/shared/api` reads answers tolerantly (the live service leaves fields out or sends them
 * null); these hold our own service's `spec` profile to the letter. Fields the tables mark as
 * present only in some answers are optional; fields the service adds beyond the tables (its
 * extensions) are allowed. Only the primitives (dates, timestamps, the custom-field map) are
 * shared with `src/shared/api`.
 */

const str = z.string();
const int = z.number().int();
/** `{id: string, name: string}` */
const Ref = z.object({ id: str, name: str });

const FormSubmission = z.object({
  requestFormName: str,
  formFields: z.array(
    z.object({
      config: z.object({
        fieldId: str,
        label: str,
        type: str,
        options: z.array(str).optional(),
        isRequired: z.boolean(),
        description: str,
      }),
      value: z.unknown(),
    }),
  ),
});

/** Task */
export const SpecTask = z.object({
  id: str,
  shortId: str,
  name: str,
  actionRequiredUserId: str.nullable(),
  assignedToUserId: str.nullable(),
  createdByUserId: str.nullable(),
  customFieldsData: CustomFieldsData,
  deadline: DateString.nullable(),
  startDate: DateString.nullable(),
  endDate: DateString.nullable(),
  scheduleDate: DateString.nullable(),
  estimate: int.nullable(),
  progress: int.min(0).max(100).nullable(),
  priority: int,
  reportedTime: z.null(),
  momentCreated: LocalTimestamp,
  momentClosed: LocalTimestamp.nullable(),
  recentActivityMoment: LocalTimestamp,
  parentTaskId: str.nullable(),
  projectId: str,
  status: Ref,
  systemStatus: int,
  systemType: int,
  scheduleStatus: int,
  taskType: Ref,
  users: z.array(str),
  /** "present in some responses" */
  formSubmission: FormSubmission.nullable().optional(),
});
/** The single-task response: with `subtasks`, and `crmAccountId` when linked. */
export const SpecTaskDetail = SpecTask.extend({ subtasks: z.array(SpecTask), crmAccountId: str.optional() });

/** Task message */
export const SpecMessage = z.object({
  id: str,
  dateCreated: LocalTimestamp,
  communicationFlow: int,
  fromUserId: str,
  /**
   * The table says string; a message written when the task had no action-required user, or with
   * no time report, has none to name, and our service answers null (the tables do not say what
   * "none" is). Present either way.
   */
  toUserId: str.nullable(),
  message: str,
  messageRTF: z.record(str, z.unknown()),
  editByUserId: str.nullable(),
  editDate: LocalTimestamp.nullable(),
  taskStatusId: str,
  taskSystemStatusNew: int.nullable(),
  timeReportId: str.nullable(),
});

/** Project or folder, as the list answers it. */
export const SpecProject = z.object({
  id: str,
  name: str,
  description: str,
  startDate: DateString.nullable(),
  endDate: DateString.nullable(),
  estimate: int.nullable(),
  moment_created: LocalTimestamp,
  /** The table names the parent; a root project or folder has none and answers null. */
  parentProjectId: str.nullable(),
  priority: int,
  progress: int.min(0).max(100).nullable(),
  status: str,
  statusComments: str,
  systemStatus: int,
  customFieldsData: CustomFieldsData,
});
/** The single-project response adds `settings`. */
export const SpecProjectDetail = SpecProject.extend({
  settings: z.object({
    workItems: z.array(z.enum(WORK_ITEMS)),
    additionalTaskCustomFields: z.array(str),
    taskCustomWorkflow: z.array(str),
    taskTypes: z.array(str),
  }),
});

/** Project user */
export const SpecProjectUser = z.object({
  id: str,
  name: str,
  primaryEmail: str,
  access: z.enum(['Read only', 'Read only + comment', 'Limited', 'Standard', 'Full']),
  watchAll: z.boolean(),
});

/** Project history event: `params` holds both values, `oldValue` may be null. */
export const SpecHistoryEvent = z.object({
  id: str,
  eventType: str,
  momentCreated: LocalTimestamp,
  userId: str,
  params: z
    .object({ newValue: z.unknown(), oldValue: z.unknown() })
    .refine((p) => 'newValue' in p && 'oldValue' in p, 'must hold newValue and oldValue'),
});

/** Document list item; the single-document response adds `content`. */
export const SpecDocumentListItem = z.object({
  id: str,
  name: str,
  projectId: str,
  createdByUserId: str,
  momentCreated: LocalTimestamp,
  momentUpdated: LocalTimestamp,
});
export const SpecDocument = SpecDocumentListItem.extend({ content: str });

/** Calendar event; `endDate` can be absent for single-day types only. */
export const SpecEvent = z
  .object({
    id: str,
    eventType: z.enum(EVENT_TYPES),
    name: str,
    notes: str.nullable(),
    startDate: DateString,
    endDate: DateString.optional(),
    userId: str.nullable(),
    projectId: str.nullable(),
    assignedToUserId: str.nullable(),
    momentCreated: LocalTimestamp,
  })
  .refine((e) => e.endDate !== undefined || SINGLE_DAY_EVENT_TYPES.includes(e.eventType as EventType), {
    path: ['endDate'],
    message: 'missing on an event type that is not single-day',
  });

const KINDS = ['Task', 'Event', 'Project'] as const;
/** A dependency of a list: `{id, type, <side><Kind>Id}`, exactly one kind id given. */
const dependencyOf = (side: 'successor' | 'predecessor') =>
  z
    .object({ id: str, type: z.union([z.literal(5), z.literal(6), z.literal(7)]) })
    .catchall(z.unknown())
    .refine(
      (d) =>
        KINDS.filter((k) => typeof d[`${side}${k}Id`] === 'string' && d[`${side}${k}Id`] !== '').length === 1,
      `must name exactly one ${side}TaskId, ${side}EventId or ${side}ProjectId`,
    );
/** GET /task|event|project/{id}/dependencies */
export const SpecDependencies = z.object({
  successors: z.array(dependencyOf('successor')),
  predecessors: z.array(dependencyOf('predecessor')),
});

/** CRM contact */
export const SpecCrmContact = z.object({
  id: str,
  companyId: str,
  contactType: str,
  crmAccountId: str.nullable(),
  contactOwnerUserId: str,
  firstName: str,
  lastName: str,
  email: str,
  phone: str,
  notes: str.nullable(),
  customFieldsData: CustomFieldsData,
  userId: str.nullable(),
  isDeleted: z.boolean(),
});
/** GET /crm/contact/{id} */
export const SpecCrmContactDetail = z.object({
  contact: SpecCrmContact,
  tasks: z.array(z.object({ id: str, shortId: str, taskStatusId: str, taskTypeId: str, title: str })),
});

const crmAccountFields = {
  id: str,
  name: str,
  email: str,
  phone: str,
  website: str,
  notes: str.nullable(),
  customFieldsData: CustomFieldsData,
  isDeleted: z.boolean(),
};
/** CRM account as the list answers it. */
export const SpecCrmAccount = z.object({
  ...crmAccountFields,
  accountOwnerUserId: str,
  contacts: z.array(str),
});
/** GET /crm/account/{id}: the owner is named `contactOwnerUserId` there. */
export const SpecCrmAccountDetail = z.object({
  account: z.object({ ...crmAccountFields, companyId: str, contactOwnerUserId: str }),
  contacts: z.array(str),
});

/** Custom field definition */
export const SpecCustomField = z.object({
  id: str,
  name: str,
  type: int,
  access: int,
  params: z.record(str, z.unknown()),
  sortPosition: int,
});

/** Users, task statuses and task types: the spec shows their ids and names only. */
export const SpecNamed = Ref;
