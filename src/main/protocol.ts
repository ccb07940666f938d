import { net, protocol } from 'electron';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import mime from 'mime';
import { resolveStaticPath } from './core/static-files';
import { APP_HOST, APP_SCHEME, RENDERER_CSP } from './security';

/** Must run before `app` is ready: makes `app://` a standard, secure origin (checklist item 18). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/**
 * Serves the built renderer at `app://workdesk/` from `rendererDir` only. Any other host, a
 * path leaving the folder, or a missing file answers 404; every answer carries the CSP.
 */
export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = url.host === APP_HOST ? resolveStaticPath(rendererDir, url.pathname) : undefined;
    if (!file) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).href).catch(() => undefined);
    if (!response?.ok) return new Response('Not found', { status: 404 });
    return new Response(response.body, {
      status: 200,
      headers: {
        'Content-Type': mime.getType(extname(file)) ?? 'application/octet-stream',
        'Content-Security-Policy': RENDERER_CSP,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });
}
