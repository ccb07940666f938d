import type { Db } from './open';

export interface UploadRow {
  file_id: string;
  token: string;
  name: string;
  mime: string;
  expires_at: number;
  uploaded_at: string | null;
  size: number | null;
}

export function uploadStore(db: Db) {
  const insert = db.prepare<UploadRow>(
    `INSERT INTO uploads (file_id, token, name, mime, expires_at, uploaded_at, size)
     VALUES (@file_id, @token, @name, @mime, @expires_at, @uploaded_at, @size)`,
  );
  const byToken = db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE token = ?');
  const byFileId = db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE file_id = ?');
  const complete = db.prepare<{ file_id: string; uploaded_at: string; size: number }>(
    'UPDATE uploads SET uploaded_at = @uploaded_at, size = @size WHERE file_id = @file_id AND uploaded_at IS NULL',
  );
  return {
    insert: (row: UploadRow) => insert.run(row),
    byToken: (token: string) => byToken.get(token),
    byFileId: (fileId: string) => byFileId.get(fileId),
    /** Returns false when the address was already used. */
    complete: (fileId: string, uploadedAt: string, size: number) =>
      complete.run({ file_id: fileId, uploaded_at: uploadedAt, size }).changes === 1,
  };
}
