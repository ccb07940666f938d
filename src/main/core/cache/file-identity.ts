// What identifies one state of a file on disk. No database code here: the web host's own thread
// (src/main/core/accounts/first-screen.ts) checks a cache file's identity before the core loads.
import { statSync } from 'node:fs';

/** One state of a file: its inode, size and modification time (nanoseconds), as a string. */
export function fileIdentity(file: string): string {
  const s = statSync(file, { bigint: true });
  return JSON.stringify({
    dev: String(s.dev),
    ino: String(s.ino),
    size: String(s.size),
    mtimeNs: String(s.mtimeNs),
  });
}
