// The app's write runner: `runWrite` (lib/run-write.ts) bound to the bridge and the toasts.
// Every domain's writes (task-writes, project-writes, crm-writes, ...) call this one.
import { bridge } from '../lib/bridge';
import { createRunWrite } from '../lib/run-write';
import { toasts } from '../lib/toasts.svelte';
import { recordWrite } from './undo';

export const runWrite = createRunWrite(bridge, toasts, recordWrite);
