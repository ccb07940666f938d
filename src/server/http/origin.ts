import type { FastifyRequest } from 'fastify';

/**
 * The service's own origin as this connection reached it: the scheme and the local address and
 * port of the socket, never the `Host` header, which the client writes (an address built on it
 * could send a file, or the next request's bytes, to a host of the client's choosing).
 */
export function listeningOrigin(request: FastifyRequest): string {
  const socket = request.raw.socket;
  const bound = request.server.server.address();
  let host = socket.localAddress ?? (typeof bound === 'object' && bound ? bound.address : '127.0.0.1');
  const port = socket.localPort ?? (typeof bound === 'object' && bound ? bound.port : 80);
  // A dual-stack socket reports an IPv4 client's address in its IPv6 form.
  if (host.startsWith('::ffff:') && host.includes('.')) host = host.slice('::ffff:'.length);
  if (host.includes(':')) host = `[${host}]`;
  return `${request.protocol}://${host}:${port}`;
}
