import { z } from 'zod';
import { channel, type ResourceSpec } from './channel';
import { Id } from './read-common';
import { CustomFieldValueView } from './org';
import { DependencyView } from './tasks';
import { ProjectTemplate } from '../api/org';
import { Project, ProjectSettings } from '../api/projects';
import { ProjectUser } from '../api/members';
import { DocumentListItem } from '../api/documents';
import { ProjectHistoryEvent } from '../api/history';
import { lazySchema } from '../lazy-schema';

/** One node of the folder/project tree, in depth-first order (children sorted by name). */
export const ProjectNode = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    parentProjectId: z.string().nullable(),
    depth: z.number().int().min(0),
    isFolder: z.boolean(),
    status: z.string(),
    /** 2 open, 5 archived. */
    systemStatus: z.number().int(),
    archived: z.boolean(),
    priority: z.number().int(),
    progress: z.number().int().nullable(),
    color: z.number().int().nullable(),
    /** Cached tasks directly in this project (not its subprojects), open and closed. */
    taskCount: z.number().int(),
    openTaskCount: z.number().int(),
  }),
);
export type ProjectNode = z.infer<typeof ProjectNode>;

/** A cached project: the list shape, plus the settings once the single-project response came. */
export const ProjectView = lazySchema(() => Project.extend({ settings: ProjectSettings.nullable() }));
export type ProjectView = z.infer<typeof ProjectView>;

/** A document; `content` is null when never fetched and the service cannot be reached. */
export const DocumentView = lazySchema(() => DocumentListItem.extend({ content: z.string().nullable() }));
export type DocumentView = z.infer<typeof DocumentView>;

/** The side parts of a project a service may not offer (it answers 404 for them). */
export const ProjectPart = lazySchema(() => z.enum(['members', 'history', 'documents', 'dependencies']));
export type ProjectPart = z.infer<typeof ProjectPart>;

export const ProjectDetail = lazySchema(() =>
  z.object({
    project: ProjectView,
    /** Ancestors from the root down to the parent. */
    path: z.array(z.object({ id: z.string(), name: z.string() })),
    children: z.array(ProjectNode),
    members: z.array(ProjectUser),
    documents: z.array(DocumentListItem),
    history: z.array(ProjectHistoryEvent),
    customFields: z.array(CustomFieldValueView),
    /** When the on-demand parts (members, history, settings) were last fetched; null if never. */
    detailFetchedAt: z.string().nullable(),
    /** Parts this service does not offer for the project (404 while the project is there): shown as unavailable. */
    notOffered: z.array(ProjectPart).default([]),
  }),
);
export type ProjectDetail = z.infer<typeof ProjectDetail>;

/** The resources this domain is the home of (see `RESOURCES` in `../entities.ts`). */
export const projectResources = {
  project: { noun: 'a project', cacheEntities: ['projects', 'members', 'history'], outbox: true },
  /** Project documents: read only, but a pull asks the outbox as for the others. */
  document: { noun: 'a document', cacheEntities: ['documents'], outbox: true },
} as const satisfies Record<string, ResourceSpec>;

export const projectReadChannels = {
  'projects.tree': channel(
    () => z.object({ includeArchived: z.boolean().default(true) }).strict(),
    () => z.object({ nodes: z.array(ProjectNode) }),
  ),
  'projects.detail': channel(
    () => z.object({ projectId: Id }).strict(),
    () => ProjectDetail,
  ),
  'documents.get': channel(
    () => z.object({ documentId: Id }).strict(),
    () => DocumentView,
  ),
  /**
   * A project's documents, with `subfolders` those of every project and folder below it too
   * (the documents endpoint's `subfolders`; the pull caches whole subtrees).
   */
  'documents.list': channel(
    () => z.object({ projectId: Id, subfolders: z.boolean().default(false) }).strict(),
    () => z.array(DocumentListItem),
  ),
  /**
   * The templates new-project accepts (`projectTemplateId`). When the service lists none (GoodDay
   * offers no such list), the ids typed before that made a project, marked `usedBefore`: the
   * dialog then takes a typed id and offers these.
   */
  'projects.templates': channel(
    () => z.object({}).strict(),
    () => z.array(ProjectTemplate.extend({ usedBefore: z.boolean().optional() })),
  ),
  /** The project's predecessors and successors (fetched when opened, then cached). */
  'dependencies.ofProject': channel(
    () => z.object({ projectId: Id }).strict(),
    () => z.array(DependencyView),
  ),
};
