import { z } from 'zod';
import {
  Color,
  CustomFieldsData,
  DateString,
  Health,
  Id,
  LocalTimestamp,
  Minutes,
  OptionalFlag,
  Priority,
  Progress,
  Title,
  withAliases,
} from './common';

export const WORK_ITEMS = [
  'ATTACHMENT',
  'DISCUSSION',
  'DOCUMENT',
  'EVENT',
  'MEETING',
  'PROJECT',
  'REQUEST_FORM',
  'TASK',
  'EXPENSE',
] as const;

export const ProjectSettings = z.looseObject({
  workItems: z.array(z.string()),
  additionalTaskCustomFields: z.array(z.string()),
  taskCustomWorkflow: z.array(z.string()),
  taskTypes: z.array(z.string()),
});
export type ProjectSettings = z.infer<typeof ProjectSettings>;

/** A project or folder as the create responses answer it (no `customFieldsData`). */
export const ProjectBase = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  startDate: DateString.nullable(),
  endDate: DateString.nullable(),
  estimate: z.number().int().nullable(),
  /** Written with an underscore, as the spec shows. */
  moment_created: LocalTimestamp,
  /** Null for a root project or folder. */
  parentProjectId: z.string().nullable(),
  priority: z.number().int(),
  progress: z.number().int().nullable(),
  status: z.string(),
  statusComments: z.string(),
  systemStatus: z.number().int(),
  /** Extensions: what a client needs to draw the tree and edit the project. */
  isFolder: z.boolean().optional(),
  color: z.number().int().nullable().optional(),
  health: z.number().int().nullable().optional(),
  ownerUserId: z.string().nullable().optional(),
  deadline: DateString.nullable().optional(),
  statusId: z.string().nullable().optional(),
});
export type ProjectBase = z.infer<typeof ProjectBase>;

/** GET /projects elements. */
export const Project = ProjectBase.extend({ customFieldsData: CustomFieldsData });
export type Project = z.infer<typeof Project>;
export const ProjectsResponse = z.array(Project);

/** GET /project/{id} */
export const ProjectDetail = Project.extend({ settings: ProjectSettings });
export type ProjectDetail = z.infer<typeof ProjectDetail>;

/** GET /projects */
export const ProjectsQuery = z.object({ archived: OptionalFlag, rootOnly: OptionalFlag });

/** POST /projects/new-folder */
export const NewFolderBody = z.object({
  createdByUserId: Id,
  name: Title,
  parentProjectId: Id.nullish(),
  color: Color.nullish(),
});
export type NewFolderBody = z.input<typeof NewFolderBody>;

/** POST /projects/new-project */
export const NewProjectBody = withAliases(
  z.object({
    createdByUserId: Id,
    projectTemplateId: Id,
    name: Title,
    parentProjectId: Id.nullish(),
    color: Color.nullish(),
    projectOwnerUserId: Id.nullish(),
    startDate: DateString.nullish(),
    endDate: DateString.nullish(),
    deadline: DateString.nullish(),
  }),
  { 'start-date': 'startDate', 'end-date': 'endDate' },
);
export type NewProjectBody = z.input<typeof NewProjectBody>;

export const CreateProjectResponse = ProjectBase;

/**
 * The fields of PUT /project/{id} but the acting user. Absent fields are unchanged; null resets
 * where marked. The IPC's project changes are these (src/shared/ipc/projects-write.ts).
 */
export const ProjectUpdateFields = z.object({
  name: Title.optional(),
  description: z.string().max(200_000).optional(),
  color: Color.optional(),
  health: Health.nullable().optional(),
  statusComments: z.string().max(200_000).optional(),
  /** Moves the project under another project or folder. */
  parentProjectId: Id.optional(),
  /** Must already be a member; null removes the owner. */
  ownerUserId: Id.nullable().optional(),
  startDate: DateString.nullable().optional(),
  endDate: DateString.nullable().optional(),
  priority: Priority.optional(),
  estimate: Minutes.nullable().optional(),
  progress: Progress.nullable().optional(),
  /** 5 archives, 2 re-opens. */
  systemStatus: z
    .union([z.literal(2), z.literal(5)], { message: 'must be 2 (open) or 5 (archived)' })
    .optional(),
  /** Not for folders; wins over systemStatus. */
  statusId: Id.optional(),
});

/** PUT /project/{id} */
export const UpdateProjectBody = withAliases(z.object({ userId: Id, ...ProjectUpdateFields.shape }), {
  'start-date': 'startDate',
  'end-date': 'endDate',
});
export type UpdateProjectBody = z.input<typeof UpdateProjectBody>;

/** GET /project/{id}/documents */
export const SubfoldersQuery = z.object({ subfolders: OptionalFlag });
