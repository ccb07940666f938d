// The app on a generated workspace whose acting user's Action required inbox is longer than the
// page's first screen of rows (1,500 tasks, one message each): for the inbox's reads further down.
import { join } from 'node:path';
import { openDatabase } from '../../../src/server/db/open';
import { generateWorkspace } from '../../../src/server/seed/generate';
import type { RunningApp } from './web-host';
import { appSuite, type Suite } from './suite';

export function longInboxSuite(): Suite<RunningApp> {
  return appSuite({
    service: {
      seed: 'empty',
      prepare(dataDir) {
        const db = openDatabase(join(dataDir, 'service.sqlite'));
        generateWorkspace(db, { projects: 4, tasks: 1_500, messagesPerTask: 1, seed: 3 });
        db.close();
      },
    },
    viewport: { width: 1280, height: 800 },
    startTimeoutMs: 120_000,
  });
}
