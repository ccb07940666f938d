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
  orDefault,
  Priority,
  Progress,
  Title,
  withAliases,
} from './common';
import { endpoint, endpoints } from './endpoint';
import { SetCustomFieldsBody } from './custom-fields';
import { lazySchema } from '../lazy-schema';

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

export const ProjectSettings = lazySchema(() =>
  z.looseObject({
    workItems: orDefault(z.array(z.string()), () => []),
    additionalTaskCustomFields: orDefault(z.array(z.string()), () => []),
    taskCustomWorkflow: orDefault(z.array(z.string()), () => []),
    taskTypes: orDefault(z.array(z.string()), () => []),
  }),
);
export type ProjectSettings = z.infer<typeof ProjectSettings>;

/**
 * A project or folder as the create responses answer it (no `customFieldsData`). GoodDay's live
 * service sends `status` and `statusComments` null in most projects, `description` now and then,
 * no `isFolder` (recent clients read `systemType`: "FOLDER" or "PROJECT"); those read as below.
 */
export const ProjectBase = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    description: orDefault(z.string(), () => ''),
    startDate: orDefault(DateString.nullable(), () => null),
    endDate: orDefault(DateString.nullable(), () => null),
    estimate: orDefault(z.number().int().nullable(), () => null),
    /** Written with an underscore, as the spec shows. */
    moment_created: LocalTimestamp,
    /** Null for a root project or folder (and read as null when absent). */
    parentProjectId: orDefault(z.string().nullable(), () => null),
    priority: orDefault(z.number().int(), () => 5),
    progress: orDefault(z.number().int().nullable(), () => null),
    /** The status's name; '' when the service has none for it (null on the live service). */
    status: orDefault(z.string(), () => ''),
    statusComments: orDefault(z.string(), () => ''),
    systemStatus: z.number().int(),
    /** Extensions: what a client needs to draw the tree and edit the project. */
    isFolder: z.boolean().optional(),
    /** GoodDay's spelling of what a project item is: "FOLDER" or "PROJECT" (our service sends it too). */
    systemType: z.string().nullish(),
    color: z.number().int().nullable().optional(),
    health: z.number().int().nullable().optional(),
    ownerUserId: z.string().nullable().optional(),
    deadline: DateString.nullable().optional(),
    statusId: z.string().nullable().optional(),
  }),
);
export type ProjectBase = z.infer<typeof ProjectBase>;

/**
 * Whether a project item is a folder, from what its answer says: `isFolder` (our service), else
 * `systemType` (GoodDay). Undefined when it says neither: the sync then tells from the tree.
 */
export function projectIsFolder(p: {
  isFolder?: boolean | undefined;
  systemType?: string | null | undefined;
}): boolean | undefined {
  if (p.isFolder !== undefined) return p.isFolder;
  if (typeof p.systemType === 'string' && p.systemType) return p.systemType.toUpperCase() === 'FOLDER';
  return undefined;
}

/** Puts `isFolder` on an item read from `systemType` when the answer has no flag of its own. */
function withFolderFlag<T extends { isFolder?: boolean | undefined; systemType?: string | null | undefined }>(
  p: T,
): T {
  const isFolder = projectIsFolder(p);
  return isFolder === undefined || p.isFolder !== undefined ? p : { ...p, isFolder };
}

/** GET /projects elements; the live service leaves `customFieldsData` out of list items. */
export const Project = lazySchema(() =>
  ProjectBase.extend({ customFieldsData: orDefault(CustomFieldsData, () => ({})) }),
);
export type Project = z.infer<typeof Project>;
export const ProjectsResponse = lazySchema(() => z.array(Project.transform(withFolderFlag)));

/** GET /project/{id}; GoodDay's documented samples carry no `settings` (read as null). */
export const ProjectDetail = lazySchema(() =>
  Project.extend({
    settings: orDefault(ProjectSettings.nullable(), () => null),
  }).transform(withFolderFlag),
);
export type ProjectDetail = z.output<typeof ProjectDetail>;

/** GET /projects */
export const ProjectsQuery = lazySchema(() => z.object({ archived: OptionalFlag, rootOnly: OptionalFlag }));

/** POST /projects/new-folder */
export const NewFolderBody = lazySchema(() =>
  z.object({
    createdByUserId: Id,
    name: Title,
    parentProjectId: Id.nullish(),
    color: Color.nullish(),
  }),
);
export type NewFolderBody = z.input<typeof NewFolderBody>;

/** POST /projects/new-project */
export const NewProjectBody = lazySchema(() =>
  withAliases(
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
  ),
);
export type NewProjectBody = z.input<typeof NewProjectBody>;

export const CreateProjectResponse = lazySchema(() => ProjectBase.transform(withFolderFlag));

/**
 * The fields of PUT /project/{id} but the acting user. Absent fields are unchanged; null resets
 * where marked. The IPC's project changes are these (src/shared/ipc/projects-write.ts).
 */
export const ProjectUpdateFields = lazySchema(() =>
  z.object({
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
  }),
);

/** PUT /project/{id} */
export const UpdateProjectBody = lazySchema(() =>
  withAliases(z.object({ userId: Id, ...ProjectUpdateFields.shape }), {
    'start-date': 'startDate',
    'end-date': 'endDate',
  }),
);
export type UpdateProjectBody = z.input<typeof UpdateProjectBody>;

/** GET /project/{id}/documents */
export const SubfoldersQuery = lazySchema(() => z.object({ subfolders: OptionalFlag }));

/** The service's endpoints of projects and folders (sent by the core's `client.call`). */
export const projectEndpoints = endpoints({
  projects: endpoint({
    method: 'GET',
    path: '/projects',
    read: 'list',
    query: ProjectsQuery,
    response: ProjectsResponse,
  }),
  project: endpoint({ method: 'GET', path: '/project/{id}', read: 'item', response: ProjectDetail }),
  updateProject: endpoint({ method: 'PUT', path: '/project/{id}', read: 'none', body: UpdateProjectBody }),
  newFolder: endpoint({
    method: 'POST',
    path: '/projects/new-folder',
    read: 'item',
    body: NewFolderBody,
    response: CreateProjectResponse,
  }),
  newProject: endpoint({
    method: 'POST',
    path: '/projects/new-project',
    read: 'item',
    body: NewProjectBody,
    response: CreateProjectResponse,
  }),
  setProjectCustomFields: endpoint({
    method: 'PUT',
    path: '/project/{id}/custom-fields',
    read: 'none',
    body: SetCustomFieldsBody,
  }),
});
