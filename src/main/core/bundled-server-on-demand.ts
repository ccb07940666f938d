import type { LocalServerFactory } from './local-service';

/**
 * The bundled service, loaded the first time the local workspace starts: a process whose
 * accounts are all remote never loads the service's code (most of the core's own code by size).
 */
export const startBundledServerOnDemand: LocalServerFactory = async (args) =>
  (await import('./bundled-server')).startBundledServer(args);
