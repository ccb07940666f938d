// Electron's end of the core's process: a utility process (a Node child Electron starts and
// ends with the app) running out/main/core.js (src/main/core/process/entry.ts).
import type { UtilityProcess } from 'electron';
import { CORE_HEAP_FLAGS } from './core/process/heap';
import type { ChildLink } from './core/process/messages';

export interface UtilityProcessApi {
  fork(
    modulePath: string,
    args?: string[],
    options?: { serviceName?: string; stdio?: 'inherit'; execArgv?: string[] },
  ): UtilityProcess;
}

/** Starts the core's entry in a utility process and wraps it as the transport's child link. */
export function forkUtilityCore(utilityProcess: UtilityProcessApi, entry: string): ChildLink {
  const child = utilityProcess.fork(entry, [], {
    serviceName: 'Workdesk core',
    stdio: 'inherit',
    // V8's heap settings for the core, given where its process starts (see heap.ts).
    execArgv: [...CORE_HEAP_FLAGS],
  });
  return {
    send: (message) => child.postMessage(message),
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.on('exit', (code) => listener(code)),
    kill: () => void child.kill(),
  };
}
