/**
 * Links to a task or a project: the app's own `workdesk://task/<id>` and `workdesk://project/<id>`,
 * and the live service's web link to a task, `https://www.goodday.work/t/<id>`. Public clients of
 * the live service build that web link from the task's id (six characters such as `RRaDG3`), and
 * one notes that the numeric short id there answers 404; a purely numeric part is still read as
 * a short id, looked up in the cache. Where the live service puts projects in its web links is
 * not known, so only task web links are read.
 */

export const LINK_SCHEME = 'workdesk';
export const SERVICE_WEB_ORIGIN = 'https://www.goodday.work';

export type DeepLink =
  { kind: 'task'; id: string } | { kind: 'task'; shortId: string } | { kind: 'project'; id: string };

export class LinkError extends Error {}

/** An id as the service makes them (letters, digits, `-` and `_`), or a local id of ours. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const SHORT_ID = /^\d{1,12}$/;
/** The service's site and its subdomains (`www.`, an organization's own). */
const isServiceHost = (host: string): boolean => host === 'goodday.work' || host.endsWith('.goodday.work');

function idOf(raw: string, what: string): string {
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    throw new LinkError(`The ${what} id in the link is not readable`);
  }
  if (!ID.test(id)) throw new LinkError(`The ${what} id in the link is not an id: "${id.slice(0, 40)}"`);
  return id;
}

/**
 * Reads a link; throws LinkError saying what is wrong with one that is not a link to a task or a
 * project. Surrounding spaces and angle brackets (as mail clients paste links) are ignored.
 */
export function parseLink(input: string): DeepLink {
  const text = input.trim().replace(/^<(.*)>$/, '$1');
  if (!text) throw new LinkError('The link is empty');
  if (text.length > 2048) throw new LinkError('The link is too long');
  const withScheme = /^(www\.)?goodday\.work\//i.test(text) ? `https://${text}` : text;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new LinkError(`Not a link: "${text.slice(0, 60)}"`);
  }
  if (url.username || url.password) throw new LinkError('A link with credentials is not opened');
  if (url.protocol === `${LINK_SCHEME}:`) {
    // `workdesk://task/ID`: the URL parser reads `task` as the host.
    const parts = `${url.host}${url.pathname}`.split('/').filter(Boolean);
    const [kind, id, ...rest] = parts;
    if ((kind !== 'task' && kind !== 'project') || id === undefined || rest.length)
      throw new LinkError(
        `Not a Workdesk link: expected ${LINK_SCHEME}://task/<id> or ${LINK_SCHEME}://project/<id>`,
      );
    const checked = idOf(id, kind);
    return kind === 'task' ? { kind, id: checked } : { kind, id: checked };
  }
  if (url.protocol === 'https:' || url.protocol === 'http:') {
    if (!isServiceHost(url.hostname.toLowerCase()))
      throw new LinkError(`Not a link to a task: ${url.hostname} is not the service's site`);
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts.length !== 2 || parts[0] !== 't' || parts[1] === undefined)
      throw new LinkError(`Not a link to a task: expected ${SERVICE_WEB_ORIGIN}/t/<id>`);
    const id = idOf(parts[1], 'task');
    return SHORT_ID.test(id) ? { kind: 'task', shortId: id } : { kind: 'task', id };
  }
  throw new LinkError(`Links of the ${url.protocol.replace(/:$/, '')} kind are not opened`);
}

/** The app's link to a task or project. */
export function appLink(kind: 'task' | 'project', id: string): string {
  return `${LINK_SCHEME}://${kind}/${encodeURIComponent(id)}`;
}

/** The live service's web link to a task (built from its id, as its web app does). */
export function serviceTaskLink(id: string): string {
  return `${SERVICE_WEB_ORIGIN}/t/${encodeURIComponent(id)}`;
}

/** The first argument of a command line that is a Workdesk link (Windows and Linux pass it so). */
export function linkInArgv(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${LINK_SCHEME}:`));
}
