import { projectTemplateReads } from '../entities/org';
import { projectReads } from '../entities/projects';
import { documentReads } from '../sync/document-index';
import { notOfferedParts } from '../sync/not-offered';
import { templatesOffered, workedTemplates } from '../sync/project-templates';
import type { HandlerMap } from './types';
import {
  customFieldValues,
  fetchOrServeCache,
  notFound,
  notHeld,
  refreshOpened,
  type ReadDeps,
} from './read-deps';

export function projectReadHandlers(
  deps: ReadDeps,
): HandlerMap<
  'projects.tree' | 'projects.detail' | 'documents.get' | 'documents.list' | 'projects.templates'
> {
  const { cache, sync } = deps;
  return {
    'projects.tree': ({ includeArchived }) => ({
      nodes: cache.projects.tree(includeArchived, cache.tasks.counts()),
    }),

    async 'projects.detail'({ projectId }) {
      // Settings, members and history are fetched the first time a project is opened.
      const asked = await refreshOpened(
        deps,
        { what: 'Project', id: projectId, field: 'projectId' },
        cache.projects.detailFetchedAt(projectId) === null,
        () => sync.onDemand.run(projectReads.project(projectId)),
      );
      const project = cache.projects.get(projectId);
      if (!project) notHeld('Project', projectId, 'projectId', asked);
      const counts = cache.tasks.counts();
      const subtree = cache.projects.tree(true, counts);
      const self = subtree.find((n) => n.id === projectId);
      return {
        project,
        path: cache.projects.path(projectId),
        children: subtree
          .filter((n) => n.parentProjectId === projectId)
          .map((n) => ({ ...n, depth: n.depth - (self ? self.depth + 1 : 0) })),
        members: cache.projectParts.membersOf(projectId),
        documents: cache.projectParts.documentsOf(projectId),
        history: cache.projectParts.historyOf(projectId),
        customFields: customFieldValues(cache, project.customFieldsData),
        detailFetchedAt: cache.projects.detailFetchedAt(projectId),
        notOffered: notOfferedParts(cache, projectId),
      };
    },

    'documents.list': ({ projectId, subfolders }) => {
      if (!cache.projects.get(projectId)) notFound('Project', projectId, 'projectId');
      return cache.projectParts.documentsOf(subfolders ? cache.projects.subtreeIds(projectId) : projectId);
    },

    async 'projects.templates'() {
      // Pulled with the organization lists; asked here only when no pull brought them yet.
      if (!cache.syncState.get('projectTemplates'))
        await fetchOrServeCache(deps, () => sync.onDemand.run(projectTemplateReads.all()));
      // A service that lists none: the ids typed here before that made a project.
      if (!templatesOffered(cache)) return workedTemplates(cache).map((t) => ({ ...t, usedBefore: true }));
      return cache.org.projectTemplates.all();
    },

    async 'documents.get'({ documentId }) {
      const cached = cache.projectParts.document(documentId);
      // Content is fetched when first read and again once the document changed on the service.
      const asked = await refreshOpened(
        deps,
        { what: 'Document', id: documentId, field: 'documentId' },
        !cached || cached.content === null || cached.contentMoment !== cached.momentUpdated,
        () => sync.onDemand.run(documentReads.document(documentId)),
      );
      const doc = cache.projectParts.document(documentId);
      if (!doc) notHeld('Document', documentId, 'documentId', asked);
      const { contentMoment: _moment, ...view } = doc;
      return view;
    },
  };
}
