// The message channel under plain Node (`child_process.fork`, structured clone) and the child's
// end in either host (Node's IPC or Electron's `process.parentPort`). Electron's host end is in
// the shell (src/main/core-process.ts): the core never imports electron.
import { fork } from 'node:child_process';
import { withCoreHeapFlags } from './heap';
import type { ChildLink, Link } from './messages';

/**
 * Starts `entry` as a Node child process, with `execArgv` (by default this process's, as Node's
 * fork has it) and V8's heap settings for the core (heap.ts) that it does not set itself.
 */
export function forkCoreChild(
  entry: string,
  options: { execArgv?: string[]; env?: NodeJS.ProcessEnv } = {},
): ChildLink {
  const child = fork(entry, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: withCoreHeapFlags(options.execArgv ?? process.execArgv),
    ...(options.env ? { env: options.env } : {}),
  });
  // A message sent as the child dies fails with EPIPE: the exit that follows answers every call
  // it had (core-process.ts), so the failed write itself needs no more.
  child.on('error', () => {});
  return {
    send: (message) => {
      if (child.connected) child.send(message, () => {});
      else throw new Error('the core process is not running');
    },
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.on('exit', (code) => listener(code)),
    kill: () => child.kill('SIGKILL'),
  };
}

/** What Electron's `process.parentPort` offers a utility process (typed here, no electron import). */
interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

/** The child's end of the channel, in a Node child or an Electron utility process. */
export function parentLink(): Link {
  const port = (process as { parentPort?: ParentPortLike }).parentPort;
  if (port) {
    return {
      send: (message) => port.postMessage(message),
      onMessage: (listener) => port.on('message', (event) => listener(event.data)),
    };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error('The core process was started without a channel to its host');
  return {
    send: (message) => void send(message),
    onMessage: (listener) => process.on('message', listener),
  };
}
