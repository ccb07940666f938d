import { z } from 'zod';
import { channel } from './channel';
import { Id } from './read-common';
import { CustomFieldValueView } from './org';

/** One node of the folder/project tree, in depth-first order (children sorted by name). */
export const ProjectNode = z.object({
  id: z.string(),
  name: z.string(),
  parentProjectId: z.string().nullable(),
  depth: z.number().int().min(0),
  status: z.string(),
  /** 2 open, 5 archived. */
  systemStatus: z.number().int(),
  archived: z.boolean(),
  priority: z.number().int(),
  progress: z.number().int().nullable(),
  /** Cached tasks directly in this project (not its subprojects), open and closed. */
  taskCount: z.number().int(),
  openTaskCount: z.number().int(),
});
export type ProjectNode = z.infer<typeof ProjectNode>;

export const ProjectSettingsView = z.object({
  workItems: z.array(z.string()),
  additionalTaskCustomFields: z.array(z.string()),
  taskCustomWorkflow: z.array(z.string()),
  taskTypes: z.array(z.string()),
});

export const ProjectView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  parentProjectId: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  estimate: z.number().int().nullable(),
  momentCreated: z.string(),
  priority: z.number().int(),
  progress: z.number().int().nullable(),
  status: z.string(),
  statusComments: z.string(),
  systemStatus: z.number().int(),
  archived: z.boolean(),
  /** Null until the single-project response has been fetched once. */
  settings: ProjectSettingsView.nullable(),
});
export type ProjectView = z.infer<typeof ProjectView>;

export const ProjectMemberView = z.object({
  userId: z.string(),
  name: z.string(),
  primaryEmail: z.string(),
  access: z.string(),
  watchAll: z.boolean(),
});
export type ProjectMemberView = z.infer<typeof ProjectMemberView>;

export const HistoryEntryView = z.object({
  id: z.string(),
  eventType: z.string(),
  momentCreated: z.string(),
  userId: z.string(),
  newValue: z.unknown(),
  oldValue: z.unknown(),
});
export type HistoryEntryView = z.infer<typeof HistoryEntryView>;

export const DocumentItemView = z.object({
  id: z.string(),
  name: z.string(),
  projectId: z.string(),
  createdByUserId: z.string(),
  momentCreated: z.string(),
  momentUpdated: z.string(),
});
export type DocumentItemView = z.infer<typeof DocumentItemView>;

export const DocumentView = DocumentItemView.extend({
  /** Null when the content was never fetched and the service cannot be reached. */
  content: z.string().nullable(),
});
export type DocumentView = z.infer<typeof DocumentView>;

export const ProjectDetail = z.object({
  project: ProjectView,
  path: z.array(z.object({ id: z.string(), name: z.string() })),
  children: z.array(ProjectNode),
  members: z.array(ProjectMemberView),
  documents: z.array(DocumentItemView),
  history: z.array(HistoryEntryView),
  customFields: z.array(CustomFieldValueView),
  /** When the on-demand parts (members, history, settings) were last fetched; null if never. */
  detailFetchedAt: z.string().nullable(),
});
export type ProjectDetail = z.infer<typeof ProjectDetail>;

export const projectReadChannels = {
  'projects.tree': channel(
    z.object({ includeArchived: z.boolean().default(true) }).strict(),
    z.object({ nodes: z.array(ProjectNode) }),
  ),
  'projects.detail': channel(z.object({ projectId: Id }).strict(), ProjectDetail),
  'documents.get': channel(z.object({ documentId: Id }).strict(), DocumentView),
};
