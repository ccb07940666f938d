import mime from 'mime';
import { LIMITS } from '../../../shared/api/common';

/** The mime type the system gave, else the one the name implies, else octet-stream. */
export function mimeFor(name: string, given?: string | null): string {
  const trimmed = given?.trim();
  if (trimmed) return trimmed;
  return mime.getType(name) ?? 'application/octet-stream';
}

/**
 * A file name the service accepts: path parts and control characters removed, and at most
 * `max` characters with the extension kept (`a-very-long…name.pdf`).
 */
export function shortenName(raw: string, max: number = LIMITS.attachmentNameLength): string {
  // eslint-disable-next-line no-control-regex
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const name = base || 'file';
  const chars = [...name];
  if (chars.length <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? [...name.slice(dot)] : [];
  // An "extension" longer than a third of the limit is not one worth keeping.
  const keep = ext.length > 0 && ext.length <= Math.floor(max / 3) ? ext : [];
  const stem = chars.slice(0, chars.length - keep.length);
  return [...stem.slice(0, max - keep.length - 1), '…', ...keep].join('');
}

/** "Attached 3 files": the message of a comment made by dropping files on a task. */
export function attachedNote(count: number): string {
  return `Attached ${count} ${count === 1 ? 'file' : 'files'}`;
}

/** Splits a list into requests of at most `size` (the service takes 20 attachments per request). */
export function chunks<T>(items: readonly T[], size: number = LIMITS.attachmentsPerRequest): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
