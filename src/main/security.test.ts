import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Session, WebContents } from 'electron';
import {
  APP_ORIGIN,
  RENDERER_CSP,
  hardenSession,
  hardenWebContents,
  isAppUrl,
  safeExternalUrl,
} from './security';

vi.mock('electron', () => ({}));

type Listener = (...args: unknown[]) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  const contents = {
    on: vi.fn((name: string, listener: Listener) => listeners.set(name, listener)),
    setWindowOpenHandler: vi.fn((handler: typeof openHandler) => (openHandler = handler)),
  };
  return {
    contents: contents as unknown as WebContents,
    fire(name: string, url = '') {
      const event = { preventDefault: vi.fn() };
      listeners.get(name)?.(event, url);
      return event;
    },
    open: (url: string) => openHandler?.({ url }),
  };
}

describe('content security policy', () => {
  it('allows scripts only from the app and connects nowhere else', () => {
    const directives = Object.fromEntries(RENDERER_CSP.split('; ').map((d) => [d.split(' ')[0], d]));
    expect(directives['script-src']).toBe("script-src 'self'");
    expect(directives['default-src']).toBe("default-src 'self'");
    expect(directives['connect-src']).toBe("connect-src 'self'");
    expect(directives['object-src']).toBe("object-src 'none'");
    expect(directives['frame-ancestors']).toBe("frame-ancestors 'none'");
    expect(RENDERER_CSP).not.toMatch(/unsafe-eval|\*/);
  });
});

describe('web contents', () => {
  it('refuses every navigation, and sends an external https link to the system browser', () => {
    const openExternal = vi.fn();
    const page = fakeContents();
    hardenWebContents(page.contents, { openExternal });
    expect(page.fire('will-navigate', `${APP_ORIGIN}/other.html`).preventDefault).toHaveBeenCalled();
    expect(page.fire('will-navigate', 'https://example.com/doc').preventDefault).toHaveBeenCalled();
    expect(openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/doc');
    expect(page.fire('will-redirect', 'https://evil.example').preventDefault).toHaveBeenCalled();
  });

  it('denies every new window; only a checked https link leaves the app', () => {
    const openExternal = vi.fn();
    const page = fakeContents();
    hardenWebContents(page.contents, { openExternal });
    for (const url of [
      'https://example.com/a',
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://user:pw@example.com/',
    ]) {
      expect(page.open(url)).toEqual({ action: 'deny' });
    }
    expect(openExternal.mock.calls).toEqual([['https://example.com/a']]);
  });

  it('refuses <webview> tags', () => {
    const page = fakeContents();
    hardenWebContents(page.contents, { openExternal: vi.fn() });
    expect(page.fire('will-attach-webview').preventDefault).toHaveBeenCalled();
  });

  it('knows the app origin and the dev server, nothing else', () => {
    expect(isAppUrl('app://workdesk/index.html', undefined)).toBe(true);
    expect(isAppUrl('app://other/index.html', undefined)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', undefined)).toBe(false);
    expect(isAppUrl('http://localhost:5173/x', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('not a url', undefined)).toBe(false);
    expect(safeExternalUrl('https://example.com')).toBe('https://example.com/');
  });
});

describe('session', () => {
  function fakeSession() {
    const handlers: Record<string, (...args: never[]) => unknown> = {};
    const session = {
      setPermissionRequestHandler: (h: never) => (handlers['request'] = h),
      setPermissionCheckHandler: (h: never) => (handlers['check'] = h),
      setDevicePermissionHandler: (h: never) => (handlers['device'] = h),
      webRequest: { onHeadersReceived: (h: never) => (handlers['headers'] = h) },
    };
    hardenSession(session as unknown as Session);
    return handlers as Record<string, (...args: unknown[]) => unknown>;
  }

  it('denies every permission request and check', () => {
    const handlers = fakeSession();
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      handlers['request']?.({}, permission, callback);
      expect(callback).toHaveBeenCalledExactlyOnceWith(false);
      expect(handlers['check']?.({}, permission)).toBe(false);
    }
    expect(handlers['device']?.({})).toBe(false);
  });

  it('puts the CSP on every response', () => {
    const handlers = fakeSession();
    const callback = vi.fn();
    handlers['headers']?.({ responseHeaders: { 'Content-Type': ['text/html'] } }, callback);
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: {
        'Content-Type': ['text/html'],
        'Content-Security-Policy': [RENDERER_CSP],
        'X-Content-Type-Options': ['nosniff'],
      },
    });
  });
});

describe('packaging', () => {
  const root = join(import.meta.dirname, '..', '..');

  it('does not ship the remote module', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    expect({ ...pkg['dependencies'], ...pkg['devDependencies'] }).not.toHaveProperty('@electron/remote');
  });

  it('sets the fuses of the packaged build', () => {
    const config = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
    for (const line of [
      'runAsNode: false',
      'enableCookieEncryption: true',
      'enableNodeOptionsEnvironmentVariable: false',
      'enableNodeCliInspectArguments: false',
      'enableEmbeddedAsarIntegrityValidation: true',
      'onlyLoadAppFromAsar: true',
      'grantFileProtocolExtraPrivileges: false',
    ]) {
      expect(config).toContain(`  ${line}`);
    }
  });
});
