// The core's process: started by the Electron shell (utilityProcess.fork) or a host under Node
// (child_process.fork) with this file; see core-process.ts.
//
// V8's compile cache is turned on before any of the core's code loads (so the core is imported
// after it): in Electron's utility process (Node 22) a start after the first then reads the
// core's compiled code instead of compiling it again (Node keeps the cache in its own folder
// under the system's temporary one, keyed by each file's content). Node 20 has no such cache
// (`enableCompileCache` is missing there) and the core loads as before.
import * as nodeModule from 'node:module';

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
import('./core-main').catch((err: unknown) => {
  console.error(
    `The core could not load: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
  );
  process.exit(1);
});
