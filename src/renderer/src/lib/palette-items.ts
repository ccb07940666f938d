// The palette's rows and how they are grouped and matched: pure, so tests cover them.
import type { SearchHit } from '@shared/ipc/search';
import type { ProjectNode } from '@shared/ipc/projects';
import { projectColor } from './format';
import { snippetText } from './snippet';

export type PaletteGroup =
  'Tasks' | 'Projects' | 'Messages' | 'Documents' | 'Events' | 'Contacts' | 'Accounts' | 'Commands';

export const GROUP_ORDER: readonly PaletteGroup[] = [
  'Tasks',
  'Projects',
  'Messages',
  'Documents',
  'Events',
  'Contacts',
  'Accounts',
  'Commands',
];

const GROUP_OF: Record<SearchHit['kind'], PaletteGroup> = {
  task: 'Tasks',
  project: 'Projects',
  message: 'Messages',
  document: 'Documents',
  event: 'Events',
  contact: 'Contacts',
  account: 'Accounts',
};

/** One row of the palette: a search hit, a project or a command. */
export interface PaletteItem {
  key: string;
  group: PaletteGroup;
  label: string;
  /** A task's number (`#353`) before the label: a task's or a message's task's. */
  number?: string | undefined;
  /** Quiet text after the label: the project, or a command's keys. */
  detail?: string | undefined;
  /** A hit's matched text with the hits wrapped in [ and ]. */
  snippet?: string | undefined;
  keys?: string | undefined;
  /** A color dot before the label (projects). */
  color?: string | undefined;
  run: () => void;
}

const PER_GROUP = 8;

/**
 * The commands a query matches, places first: "calendar" and Enter goes to the calendar rather
 * than opening a New event dialog (declaration order listed "New calendar event" first). A
 * command to make something is named with "New", which a query for it types anyway.
 */
export function matchingCommands<C extends { id: string; label: string }>(
  commands: readonly C[],
  query: string,
): C[] {
  const matched = commands.filter((command) => matchesWords(command.label, query));
  const place = (command: C): number => (command.id.startsWith('go-') ? 0 : 1);
  return query.trim() ? matched.sort((a, b) => place(a) - place(b)) : matched;
}

/** Case-insensitive match of every word of the query, anywhere in the text. */
export function matchesWords(text: string, query: string): boolean {
  const haystack = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** Items in group order, each group capped, so the list reads as sections. */
export function groupItems(items: readonly PaletteItem[], perGroup = PER_GROUP): PaletteItem[] {
  return GROUP_ORDER.flatMap((group) => items.filter((item) => item.group === group).slice(0, perGroup));
}

/** The group a search hit is listed under. */
export function hitGroup(hit: SearchHit): PaletteGroup {
  return GROUP_OF[hit.kind];
}

/** What a search hit's row needs from the project tree. */
export interface HitContext {
  node: (projectId: string) => ProjectNode | undefined;
}

/**
 * The palette row of a search hit. A project or folder row carries its color dot and says
 * Folder or Archived; the others name their project. The matched text is shown under the
 * label unless the label already is all of it (a task's name, a project found by its name).
 */
export function hitItem(hit: SearchHit, context: HitContext, run: () => void): PaletteItem {
  const node = hit.projectId ? context.node(hit.projectId) : undefined;
  const isProject = hit.kind === 'project';
  const matched = snippetText(hit.snippet);
  return {
    key: `${hit.kind}:${hit.id}`,
    group: hitGroup(hit),
    label: hit.title,
    number: hit.shortId ? `#${hit.shortId}` : undefined,
    detail: isProject ? (node?.isFolder ? 'Folder' : node?.archived ? 'Archived' : undefined) : node?.name,
    // A task found by a custom field's value shows the value; one found by its name, nothing more.
    snippet: matched === hit.title ? undefined : hit.snippet,
    color: isProject ? projectColor(node?.color) : undefined,
    run,
  };
}
