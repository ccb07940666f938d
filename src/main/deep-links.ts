// Links that open Workdesk on a task or a project: `workdesk://task/<id>`, `workdesk://project/<id>`
// and the service's web link to a task. The OS hands them over three ways: macOS sends `open-url`
// (also before the app is ready, when the link launched it); Windows and Linux start a second
// instance with the link in its command line, which gives the single-instance lock's holder a
// `second-instance` with that argv and then quits; the first launch has it in its own argv.
import type { App } from 'electron';
import { resolve } from 'node:path';
import { LINK_SCHEME, LinkError, linkInArgv, parseLink } from '../shared/links';

export interface LinkTarget {
  /** Hands a checked link to the window (`app.onDidOpenLink`); it is shown first. */
  deliver(link: string): void;
  /** A link that is not one to open: said to the user, nothing opened. */
  refuse(message: string): void;
}

/**
 * Checks each link before it goes anywhere, and holds those that come before the window listens
 * (a launch by a link), until the window takes them (`take`).
 */
export class LinkHandler {
  readonly #target: LinkTarget;
  #ready = false;
  readonly #waiting: string[] = [];

  constructor(target: LinkTarget) {
    this.#target = target;
  }

  /** A link from the OS (open-url) or the command line. */
  open(raw: string): void {
    try {
      parseLink(raw);
    } catch (err) {
      if (err instanceof LinkError) {
        this.#target.refuse(err.message);
        return;
      }
      throw err;
    }
    const link = raw.trim();
    if (this.#ready) this.#target.deliver(link);
    else this.#waiting.push(link);
  }

  /** The link in a command line, if it has one (anything else in it is not ours to read). */
  openFromArgv(argv: readonly string[]): void {
    const link = linkInArgv(argv);
    if (link !== undefined) this.open(link);
  }

  /** The window listens now: the links held so far, for it to open; later ones are delivered. */
  take(): string[] {
    this.#ready = true;
    return this.#waiting.splice(0);
  }
}

export interface DeepLinkOptions {
  /** Unpackaged runs (`electron .`): the OS must start Electron with the app's path. */
  defaultApp: boolean;
  execPath: string;
  argv: readonly string[];
  /** Brings the main window forward (a second instance was started). */
  focus(): void;
}

/**
 * Registers the `workdesk:` scheme with the OS and listens for links: `open-url` (macOS) and
 * `second-instance` (Windows, Linux: the link is in the new instance's argv). The first launch's
 * own argv is read too. Call before `whenReady` so a macOS launch's `open-url` is not missed.
 */
export function registerDeepLinks(app: App, handler: LinkHandler, options: DeepLinkOptions): void {
  const script = options.argv[1];
  if (options.defaultApp && script) {
    app.setAsDefaultProtocolClient(LINK_SCHEME, options.execPath, [resolve(script)]);
  } else {
    app.setAsDefaultProtocolClient(LINK_SCHEME);
  }
  app.on('open-url', (event, url) => {
    event.preventDefault();
    options.focus();
    handler.open(url);
  });
  app.on('second-instance', (_event, argv) => {
    options.focus();
    handler.openFromArgv(argv);
  });
  handler.openFromArgv(options.argv);
}
