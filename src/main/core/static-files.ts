import { resolve, sep } from 'node:path';

/**
 * The renderer's Content-Security-Policy, one definition for both hosts. Scripts only from the
 * app's own files; no eval, no plugins, no framing, no base or form redirection. `connect-src`
 * is the only difference: the web host's page talks to its WebSocket on loopback, the desktop
 * window talks to nothing (IPC needs no network).
 */
export function contentSecurityPolicy({ bridgeSocket }: { bridgeSocket: boolean }): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Svelte sets inline style attributes (transitions, virtual lists); no inline script is allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    bridgeSocket ? "connect-src 'self' ws://127.0.0.1:*" : "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Maps a request path to a file inside `root`, or undefined when it would leave it
 * (`..`, encoded separators, absolute paths). `/` is `index.html`.
 */
export function resolveStaticPath(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const base = resolve(root);
  const file = resolve(base, '.' + (decoded === '/' || decoded === '' ? '/index.html' : decoded));
  return file.startsWith(base + sep) ? file : undefined;
}
