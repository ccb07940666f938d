// The Electron security checklist, applied in one place so tests can assert every item:
// https://www.electronjs.org/docs/latest/tutorial/security
import type { Session, WebContents } from 'electron';
import { contentSecurityPolicy } from './core/static-files';

/** The renderer is served from this privileged custom scheme, never from http or file URLs. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'workdesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export const RENDERER_CSP = contentSecurityPolicy({ bridgeSocket: false });

/** True for a page of the app itself (the custom scheme, or the dev server electron-vite starts). */
export function isAppUrl(
  url: string,
  devServerUrl: string | undefined = process.env['ELECTRON_RENDERER_URL'],
): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST) return true;
  if (!devServerUrl) return false;
  return parsed.origin === new URL(devServerUrl).origin;
}

/**
 * Which links may leave the app for the system browser: https only, with a host and no
 * embedded credentials. Everything else (file:, javascript:, custom schemes, http) is dropped.
 */
export function safeExternalUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' || !parsed.hostname || parsed.username || parsed.password)
    return undefined;
  return parsed.href;
}

export interface ContentsPolicy {
  openExternal(url: string): Promise<void> | void;
}

/**
 * Checklist items 13-15 for every web contents: no navigation away from the loaded page, no new
 * windows (an https link opens in the system browser after the check above), no <webview>.
 */
export function hardenWebContents(contents: WebContents, policy: ContentsPolicy): void {
  const openOutside = (url: string): void => {
    const safe = safeExternalUrl(url);
    if (safe) void policy.openExternal(safe);
  };
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    if (!isAppUrl(url)) openOutside(url);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
}

/**
 * Checklist items 5 and 7 for a session: every permission (camera, notifications from the
 * page, geolocation, HID, serial, ...) is refused, and every response carries the CSP.
 * System notifications are shown by the main process, which needs no page permission.
 */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [RENDERER_CSP],
        'X-Content-Type-Options': ['nosniff'],
      },
    });
  });
}
