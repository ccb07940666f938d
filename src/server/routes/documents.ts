import { SubfoldersQuery } from '../../shared/api/projects';
import type { ServiceContext } from '../context';
import { notFound } from '../http/errors';
import type { Router } from '../http/router';

/** Documents are read-only through the API; the seed writes them. */
export function documentRoutes(r: Router, ctx: ServiceContext): void {
  r.get('/project/:id/documents', {
    query: SubfoldersQuery,
    handle: ({ params, query }) => {
      const id = params['id'];
      if (!ctx.projects.row(id)) throw notFound('project', id);
      return { json: ctx.documents.list(id, query.subfolders) };
    },
  });
  r.get('/document/:id', {
    handle: ({ params }) => {
      const doc = ctx.documents.get(params['id']);
      if (!doc) throw notFound('document', params['id']);
      return { json: doc };
    },
  });
}
