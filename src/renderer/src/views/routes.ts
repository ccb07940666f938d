// The renderer's places, listed once: each kind of route with its parameters, the view it shows,
// its title, its links in the sidebar and its "Go to" commands. `MainView`, the sidebar, the
// window title (`App.svelte`) and the palette's commands (`state/commands.ts`) read
// this list; a view of its own is its view file plus a line in `RouteParams` and an entry in
// `ROUTES` (and, for a "G then …" key, a letter in `lib/go-to-keys.ts`). `ROUTES` is typed from
// `RouteParams`: a kind without an entry, an entry without its view or title, or a link to a place
// of another kind does not compile (`routes.test.ts`); `show` checks a view's props.
//
// The entries name their views and the app's state only inside functions: this module, the
// views and the state import each other, and nothing here is read while they load.
import type { Component, ComponentProps } from 'svelte';
import type Icon from '../components/ui/Icon.svelte';
import { inbox, myWorkCounts, org, outbox, sync, tree, updates } from '../state/app';
import { monthOf } from '../lib/calendar';
import { thisWeek } from '../lib/my-time';
import { taskTitle } from '../lib/titles.svelte';
import { LazyView } from '../lib/lazy-view.svelte';
import { taskDetailBody } from '../components/tasks/task-detail-body';
import HomeView from './HomeView.svelte';
import ProjectView from './ProjectView.svelte';
import MyWorkView from './MyWorkView.svelte';
import TagView from './TagView.svelte';
import UpdatesView from './UpdatesView.svelte';
import SearchView from './SearchView.svelte';
import TaskPage from './TaskPage.svelte';

// Views opened less often than the lists: each is a chunk of its own, loaded when first opened
// (`MainView` loads them all once the first screen is drawn and the page is idle, with the open
// task's body, components/tasks/task-detail-body.ts).
const ChangesView = new LazyView(() => import('./ChangesView.svelte'));
const SettingsView = new LazyView(() => import('./SettingsView.svelte'));
const ProjectOverview = new LazyView(() => import('./ProjectOverview.svelte'));
const ProjectTimeline = new LazyView(() => import('./ProjectTimeline.svelte'));
const ProjectFiles = new LazyView(() => import('./ProjectFiles.svelte'));
const CalendarView = new LazyView(() => import('./CalendarView.svelte'));
const CrmView = new LazyView(() => import('./CrmView.svelte'));
const MyTimeView = new LazyView(() => import('./MyTimeView.svelte'));
const LAZY_VIEWS = [
  ChangesView,
  SettingsView,
  ProjectOverview,
  ProjectTimeline,
  ProjectFiles,
  CalendarView,
  CrmView,
  MyTimeView,
  taskDetailBody,
];

/** Loads the code of every view split off, so opening one later waits for nothing. */
export function loadAllViews(): void {
  for (const view of LAZY_VIEWS) void view.load();
}

/** The task open in the detail panel beside a list. */
interface WithPanel {
  taskId?: string;
}

/** Each kind of place and its parameters. */
export interface RouteParams {
  home: WithPanel;
  project: WithPanel & {
    projectId: string;
    layout: 'list' | 'board' | 'overview' | 'timeline' | 'files';
    /** The document open in the overview's reader. */
    documentId?: string;
  };
  mywork: WithPanel & { tab: 'action' | 'assigned' };
  /** My Time: the week starting on Monday `week` (`YYYY-MM-DD`). */
  mytime: WithPanel & { week: string };
  updates: WithPanel;
  tag: WithPanel & { tagId: string };
  search: WithPanel & { query: string };
  task: { taskId: string };
  calendar: WithPanel & {
    view: 'month' | 'agenda';
    month: string;
    /** The event open in its detail (one of `month`'s). */
    eventId?: string;
  };
  crm: WithPanel & { tab: 'contacts' | 'accounts'; recordId?: string };
  changes: Record<never, never>;
  settings: Record<never, never>;
}

export type RouteKind = keyof RouteParams;
/** The place of one kind. */
export type RouteOf<K extends RouteKind> = { kind: K } & RouteParams[K];
/** One place in the app. */
export type Route = { [K in RouteKind]: RouteOf<K> }[RouteKind];

/**
 * A view with the props it is shown with: its component, or a view whose code loads on first
 * use (`lazy`, shown by `components/ui/Lazy.svelte`). `show` checks that the props are the view's.
 */
export type ShownView =
  | {
      readonly component: Component<Record<string, unknown>>;
      readonly lazy?: undefined;
      readonly props: Record<string, unknown>;
    }
  | {
      readonly lazy: LazyView<Record<string, unknown>>;
      readonly component?: undefined;
      readonly props: Record<string, unknown>;
    };

function show<P extends Record<string, unknown>>(
  view: Component<P> | LazyView<P>,
  props: NoInfer<P>,
): ShownView {
  // The pairing was checked by this function's signature; `MainView` only renders it.
  return view instanceof LazyView
    ? { lazy: view as unknown as LazyView<Record<string, unknown>>, props }
    : { component: view as unknown as Component<Record<string, unknown>>, props };
}

export type IconName = ComponentProps<typeof Icon>['name'];

/** The sidebar's lists of places, top to bottom. */
export type SidebarSection = 'mywork' | 'records' | 'bottom';

/** A fixed link to a place in the sidebar. */
export interface SidebarEntry<K extends RouteKind> {
  section: SidebarSection;
  /** Its position in the section (smaller first). */
  at: number;
  icon: IconName;
  label: string;
  testid: string;
  /** Where it goes (read as the sidebar draws its links). */
  to: () => RouteOf<K>;
  /** Whether the current place of this kind is this link's; without it, every place of the kind is. */
  current?: (route: RouteOf<K>) => boolean;
  /** The count beside the label; 0 or undefined shows none. */
  count?: () => number | undefined;
  countTestid?: string;
  /** The count is of changes waiting, drawn as such. */
  pending?: boolean;
}

/** A "Go to …" command of the palette; its "G then …" letter, if any, is in `lib/go-to-keys.ts`. */
export interface GoToEntry<K extends RouteKind> {
  id: `go-${string}`;
  label: string;
  to: () => RouteOf<K>;
  /** A chord of its own, given the platform's primary key ("Ctrl" or "Cmd"). */
  keys?: (primary: string) => string;
}

export interface RouteEntry<K extends RouteKind> {
  /** The view and its props. */
  view: (route: RouteOf<K>) => ShownView;
  /**
   * What makes the view start afresh when it changes (another project, another tab); a change of
   * any other parameter is handed to the view as new props.
   */
  key?: (route: RouteOf<K>) => string;
  /** The place's name: the window title, the view's header, an export's file name. */
  title: (route: RouteOf<K>) => string;
  sidebar?: readonly SidebarEntry<K>[];
  goTo?: readonly GoToEntry<K>[];
}

function thisMonth(): string {
  return monthOf(new Date());
}

/** Changes waiting, failed or needing attention: the Changes link's count. */
function changesCount(): number {
  return (
    (outbox.status?.pending ?? sync.status?.pendingCount ?? 0) +
    (outbox.status?.failed ?? 0) +
    (outbox.status?.stuck ?? 0)
  );
}

/** An entry for every kind of place, and no other. */
export type RouteTable = { readonly [K in RouteKind]: RouteEntry<K> };

/**
 * Every place, in the order the palette lists their "Go to" commands. The sidebar orders its
 * links by their `at`.
 */
export const ROUTES: RouteTable = {
  home: {
    view: () => show(HomeView, {}),
    title: () => 'Home',
    // The app reopens where the user was (`last-place.ts`), so Home is a place to go to as well:
    // the sidebar's first link.
    sidebar: [
      {
        section: 'mywork',
        at: 0,
        icon: 'home',
        label: 'Home',
        testid: 'nav-home',
        to: () => ({ kind: 'home' }),
      },
    ],
    goTo: [{ id: 'go-home', label: 'Go to Home', to: () => ({ kind: 'home' }) }],
  },
  project: {
    view: (route) => {
      const { projectId } = route;
      switch (route.layout) {
        case 'overview':
          return show(ProjectOverview, { projectId, documentId: route.documentId });
        case 'timeline':
          return show(ProjectTimeline, { projectId });
        case 'files':
          return show(ProjectFiles, { projectId });
        case 'list':
        case 'board':
          return show(ProjectView, { projectId, layout: route.layout });
      }
    },
    key: (route) => route.projectId,
    title: (route) => tree.name(route.projectId) || 'Project',
  },
  mywork: {
    view: (route) => show(MyWorkView, { tab: route.tab }),
    key: (route) => route.tab,
    title: (route) => (route.tab === 'action' ? 'My Work · Action required' : 'My Work · Assigned to me'),
    sidebar: [
      {
        section: 'mywork',
        at: 10,
        icon: 'inbox',
        label: 'Action required',
        testid: 'nav-action-required',
        to: () => ({ kind: 'mywork', tab: 'action' }),
        current: (route) => route.tab === 'action',
        // The inbox's unread tasks, not all of them: what needs a look now.
        count: () => inbox.unread || undefined,
        countTestid: 'count-action',
      },
      {
        section: 'mywork',
        at: 20,
        icon: 'user',
        label: 'Assigned to me',
        testid: 'nav-assigned',
        to: () => ({ kind: 'mywork', tab: 'assigned' }),
        current: (route) => route.tab === 'assigned',
        count: () => myWorkCounts.assigned,
        countTestid: 'count-assigned',
      },
    ],
    goTo: [
      {
        id: 'go-action',
        label: 'Go to My Work · Action required',
        to: () => ({ kind: 'mywork', tab: 'action' }),
      },
      {
        id: 'go-assigned',
        label: 'Go to My Work · Assigned to me',
        to: () => ({ kind: 'mywork', tab: 'assigned' }),
      },
    ],
  },
  mytime: {
    view: (route) => show(MyTimeView, { week: route.week }),
    title: () => 'My Time',
    sidebar: [
      {
        section: 'mywork',
        at: 40,
        icon: 'clock',
        label: 'My Time',
        testid: 'nav-mytime',
        to: () => ({ kind: 'mytime', week: thisWeek() }),
      },
    ],
    goTo: [{ id: 'go-mytime', label: 'Go to My Time', to: () => ({ kind: 'mytime', week: thisWeek() }) }],
  },
  updates: {
    view: () => show(UpdatesView, {}),
    title: () => 'Updates',
    sidebar: [
      {
        section: 'mywork',
        at: 30,
        icon: 'message',
        label: 'Updates',
        testid: 'nav-updates',
        to: () => ({ kind: 'updates' }),
        // What colleagues did on your tasks since you last looked.
        count: () => updates.unread || undefined,
        countTestid: 'count-updates',
      },
    ],
    goTo: [{ id: 'go-updates', label: 'Go to Updates', to: () => ({ kind: 'updates' }) }],
  },
  // The sidebar's tags are listed from the tags seen, not from here.
  tag: {
    view: (route) => show(TagView, { tagId: route.tagId }),
    key: (route) => route.tagId,
    title: (route) => `Tag · ${org.tagName(route.tagId)}`,
  },
  search: {
    view: (route) => show(SearchView, { query: route.query }),
    key: (route) => route.query,
    title: (route) => `Search · ${route.query}`,
  },
  task: {
    view: (route) => show(TaskPage, { taskId: route.taskId }),
    key: (route) => route.taskId,
    title: (route) => taskTitle(route.taskId) ?? 'Task',
  },
  calendar: {
    view: (route) => show(CalendarView, { view: route.view, month: route.month, eventId: route.eventId }),
    title: () => 'Calendar',
    sidebar: [
      {
        section: 'records',
        at: 10,
        icon: 'calendar',
        label: 'Calendar',
        testid: 'nav-calendar',
        to: () => ({ kind: 'calendar', view: 'month', month: thisMonth() }),
      },
    ],
    goTo: [
      {
        id: 'go-calendar',
        label: 'Go to Calendar',
        to: () => ({ kind: 'calendar', view: 'month', month: thisMonth() }),
      },
      {
        id: 'go-agenda',
        label: 'Go to Calendar · Agenda',
        to: () => ({ kind: 'calendar', view: 'agenda', month: thisMonth() }),
      },
    ],
  },
  crm: {
    view: (route) => show(CrmView, { tab: route.tab, recordId: route.recordId }),
    key: (route) => route.tab,
    title: (route) => (route.tab === 'contacts' ? 'Contacts' : 'Accounts'),
    sidebar: [
      {
        section: 'records',
        at: 20,
        icon: 'user',
        label: 'Contacts',
        testid: 'nav-contacts',
        to: () => ({ kind: 'crm', tab: 'contacts' }),
        current: (route) => route.tab === 'contacts',
      },
      {
        section: 'records',
        at: 30,
        icon: 'folder',
        label: 'Accounts',
        testid: 'nav-accounts',
        to: () => ({ kind: 'crm', tab: 'accounts' }),
        current: (route) => route.tab === 'accounts',
      },
    ],
    goTo: [
      { id: 'go-contacts', label: 'Go to CRM · Contacts', to: () => ({ kind: 'crm', tab: 'contacts' }) },
      { id: 'go-accounts', label: 'Go to CRM · Accounts', to: () => ({ kind: 'crm', tab: 'accounts' }) },
    ],
  },
  changes: {
    view: () => show(ChangesView, {}),
    title: () => 'Changes',
    sidebar: [
      {
        section: 'bottom',
        at: 10,
        icon: 'changes',
        label: 'Changes',
        testid: 'nav-changes',
        to: () => ({ kind: 'changes' }),
        count: changesCount,
        pending: true,
      },
    ],
    goTo: [{ id: 'go-changes', label: 'Go to Changes', to: () => ({ kind: 'changes' }) }],
  },
  settings: {
    view: () => show(SettingsView, {}),
    title: () => 'Settings',
    sidebar: [
      {
        section: 'bottom',
        at: 20,
        icon: 'settings',
        label: 'Settings',
        testid: 'nav-settings',
        to: () => ({ kind: 'settings' }),
      },
    ],
    goTo: [
      {
        id: 'go-settings',
        label: 'Go to Settings',
        to: () => ({ kind: 'settings' }),
        keys: (primary) => `${primary}+,`,
      },
    ],
  },
};

// The entry of a route's own kind. TypeScript cannot pair `ROUTES[route.kind]` with `route`
// for a union of kinds; a function generic in the kind can.
function entryOf<K extends RouteKind>(route: RouteOf<K>): RouteEntry<K> {
  return ROUTES[route.kind];
}

/** The view a place shows, and the key that makes it start afresh. */
export function placeView(route: Route): ShownView & { key: string } {
  const entry = entryOf(route);
  return { ...entry.view(route), key: `${route.kind}:${entry.key?.(route) ?? ''}` };
}

export function placeTitle(route: Route): string {
  return entryOf(route).title(route);
}

/** A place of one kind as a place of any kind (which it is, for every kind). */
function asRoute<K extends RouteKind>(route: RouteOf<K>): Route {
  return route as Route;
}

/** One link of the sidebar, as it is drawn now. */
export interface SidebarLink {
  icon: IconName;
  label: string;
  testid: string;
  current: boolean;
  to: Route;
  count?: number | undefined;
  countTestid?: string | undefined;
  pending?: boolean | undefined;
}

function linksOf<K extends RouteKind>(
  kind: K,
  section: SidebarSection,
  here: Route,
): (SidebarLink & { at: number })[] {
  const entries = (ROUTES[kind].sidebar ?? []).filter((entry) => entry.section === section);
  const current = (entry: SidebarEntry<K>): boolean =>
    here.kind === kind && (entry.current?.(here as RouteOf<K>) ?? true);
  return entries.map((entry) => ({
    at: entry.at,
    icon: entry.icon,
    label: entry.label,
    testid: entry.testid,
    current: current(entry),
    to: asRoute(entry.to()),
    count: entry.count?.(),
    countTestid: entry.countTestid,
    pending: entry.pending,
  }));
}

/** The links of one section of the sidebar, in their order, with the current one marked. */
export function sidebarLinks(section: SidebarSection, here: Route): SidebarLink[] {
  return (Object.keys(ROUTES) as RouteKind[])
    .flatMap((kind) => linksOf(kind, section, here))
    .sort((a, b) => a.at - b.at)
    .map(({ at: _at, ...link }) => link);
}

/** A "Go to" command as the palette runs it. */
export interface GoToCommand {
  id: string;
  label: string;
  to: () => Route;
  keys?: ((primary: string) => string) | undefined;
}

function goToOf<K extends RouteKind>(kind: K): GoToCommand[] {
  return (ROUTES[kind].goTo ?? []).map(({ id, label, to, keys }) => ({
    id,
    label,
    to: () => asRoute(to()),
    keys,
  }));
}

/** Every "Go to" command, in the list's order. */
export function goToEntries(): GoToCommand[] {
  return (Object.keys(ROUTES) as RouteKind[]).flatMap((kind) => goToOf(kind));
}
