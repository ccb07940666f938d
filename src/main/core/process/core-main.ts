// The core's process, loaded by its entry (entry.ts) once V8's compile cache is on; see
// core-process.ts.
import { startBundledServerOnDemand } from '../bundled-server-on-demand';
import { runCoreChild } from './core-child';
import { applyCoreHeapFlags } from './heap';
import { parentLink } from './links';

// Given on the command line where it starts (links.ts, core-process.ts); set here when a host
// did not pass them through (a no-op for those it did).
applyCoreHeapFlags();
runCoreChild(parentLink(), {
  startServer: startBundledServerOnDemand,
  exit: () => process.exit(0),
});
// Under Node, a host that went away takes its core along (Electron ends utility processes itself).
process.on('disconnect', () => process.exit(0));
