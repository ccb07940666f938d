import { z } from 'zod';
import { LocalTimestamp } from './common';
import { endpoint, endpoints } from './endpoint';
import { SubfoldersQuery } from './projects';
import { lazySchema } from '../lazy-schema';

export const DocumentListItem = lazySchema(() =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    projectId: z.string(),
    createdByUserId: z.string(),
    momentCreated: LocalTimestamp,
    momentUpdated: LocalTimestamp,
  }),
);
export type DocumentListItem = z.infer<typeof DocumentListItem>;
export const DocumentsResponse = lazySchema(() => z.array(DocumentListItem));

/** GET /document/{id} */
export const Document = lazySchema(() => DocumentListItem.extend({ content: z.string() }));
export type Document = z.infer<typeof Document>;

/** The service's endpoints of documents. */
export const documentEndpoints = endpoints({
  projectDocuments: endpoint({
    method: 'GET',
    path: '/project/{id}/documents',
    read: 'list',
    query: SubfoldersQuery,
    response: DocumentsResponse,
  }),
  document: endpoint({ method: 'GET', path: '/document/{id}', read: 'item', response: Document }),
});
