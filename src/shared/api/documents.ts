import { z } from 'zod';
import { LocalTimestamp } from './common';

export const DocumentListItem = z.looseObject({
  id: z.string(),
  name: z.string(),
  projectId: z.string(),
  createdByUserId: z.string(),
  momentCreated: LocalTimestamp,
  momentUpdated: LocalTimestamp,
});
export type DocumentListItem = z.infer<typeof DocumentListItem>;
export const DocumentsResponse = z.array(DocumentListItem);

/** GET /document/{id} */
export const Document = DocumentListItem.extend({ content: z.string() });
export type Document = z.infer<typeof Document>;
