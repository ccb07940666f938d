import { describe, expect, it, vi } from 'vitest';
import type { App } from 'electron';
import { LinkHandler, registerDeepLinks } from './deep-links';

type Listener = (...args: unknown[]) => void;

function fakeApp() {
  const listeners = new Map<string, Listener>();
  const app = {
    setAsDefaultProtocolClient: vi.fn(() => true),
    on: vi.fn((name: string, listener: Listener) => {
      listeners.set(name, listener);
      return app;
    }),
  };
  return { app, listeners, asApp: app as unknown as App };
}

function handler() {
  const target = { deliver: vi.fn(), refuse: vi.fn() };
  return { target, links: new LinkHandler(target) };
}

describe('the workdesk: protocol handler', () => {
  it('registers the scheme (with the app path in an unpackaged run) and listens for links', () => {
    const { app, asApp, listeners } = fakeApp();
    const { links } = handler();
    registerDeepLinks(asApp, links, {
      defaultApp: true,
      execPath: '/opt/electron/electron',
      argv: ['/opt/electron/electron', 'out/main/index.js'],
      focus: vi.fn(),
    });
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('workdesk', '/opt/electron/electron', [
      expect.stringMatching(/[/\\]out[/\\]main[/\\]index\.js$/),
    ]);
    expect([...listeners.keys()].sort()).toEqual(['open-url', 'second-instance']);

    const packaged = fakeApp();
    registerDeepLinks(packaged.asApp, links, {
      defaultApp: false,
      execPath: '/x',
      argv: ['/x'],
      focus: vi.fn(),
    });
    expect(packaged.app.setAsDefaultProtocolClient).toHaveBeenCalledWith('workdesk');
  });

  it('macOS open-url: holds a link that comes before the window listens, then delivers the next at once', () => {
    const { asApp, listeners } = fakeApp();
    const { target, links } = handler();
    const focus = vi.fn();
    registerDeepLinks(asApp, links, { defaultApp: false, execPath: '/x', argv: ['/x'], focus });
    const event = { preventDefault: vi.fn() };
    listeners.get('open-url')?.(event, 'workdesk://task/GfPrjC');
    expect(event.preventDefault).toHaveBeenCalled();
    expect(focus).toHaveBeenCalled();
    expect(target.deliver).not.toHaveBeenCalled();
    expect(links.take()).toEqual(['workdesk://task/GfPrjC']);
    listeners.get('open-url')?.(event, 'workdesk://project/P1');
    expect(target.deliver).toHaveBeenCalledExactlyOnceWith('workdesk://project/P1');
    expect(links.take()).toEqual([]);
  });

  it('hands a second instance’s link over to the first (Windows, Linux), focusing its window', () => {
    const { asApp, listeners } = fakeApp();
    const { target, links } = handler();
    const focus = vi.fn();
    registerDeepLinks(asApp, links, { defaultApp: false, execPath: '/x', argv: ['/x'], focus });
    links.take();
    // The OS starts `Workdesk workdesk://task/ab12CD` (Windows adds its own switches first).
    listeners.get('second-instance')?.({}, [
      'C:\\Workdesk.exe',
      '--allow-file-access-from-files',
      'workdesk://task/ab12CD',
    ]);
    expect(focus).toHaveBeenCalledOnce();
    expect(target.deliver).toHaveBeenCalledExactlyOnceWith('workdesk://task/ab12CD');
    // A second instance started with no link only brings the window forward.
    listeners.get('second-instance')?.({}, ['/usr/bin/workdesk']);
    expect(focus).toHaveBeenCalledTimes(2);
    expect(target.deliver).toHaveBeenCalledOnce();
  });

  it('reads the link the first launch was given', () => {
    const { asApp } = fakeApp();
    const { links } = handler();
    registerDeepLinks(asApp, links, {
      defaultApp: false,
      execPath: '/x',
      argv: ['/usr/bin/workdesk', 'workdesk://task/T1'],
      focus: vi.fn(),
    });
    expect(links.take()).toEqual(['workdesk://task/T1']);
  });

  it('refuses a bad link with a clear message and opens nothing', () => {
    const { asApp, listeners } = fakeApp();
    const { target, links } = handler();
    registerDeepLinks(asApp, links, { defaultApp: false, execPath: '/x', argv: ['/x'], focus: vi.fn() });
    links.take();
    for (const bad of [
      'workdesk://settings/delete-everything',
      'workdesk://task/',
      'workdesk://task/a%2F..%2Fb',
      'workdesk://task/x/y',
    ]) {
      listeners.get('open-url')?.({ preventDefault: vi.fn() }, bad);
    }
    listeners.get('second-instance')?.({}, ['/x', 'workdesk://task/<script>']);
    expect(target.deliver).not.toHaveBeenCalled();
    expect(target.refuse.mock.calls.map(([message]) => message)).toEqual([
      'Not a Workdesk link: expected workdesk://task/<id> or workdesk://project/<id>',
      'Not a Workdesk link: expected workdesk://task/<id> or workdesk://project/<id>',
      'The task id in the link is not an id: "a/../b"',
      'Not a Workdesk link: expected workdesk://task/<id> or workdesk://project/<id>',
      expect.stringMatching(/^The task id in the link is not an id|^Not a Workdesk link/),
    ]);
  });
});
