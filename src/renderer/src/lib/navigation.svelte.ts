// Where the user is, with a history for back and forward (Alt+arrows, mouse buttons 4/5). The
// page's URL fragment carries the web host's secret, so history lives here rather than in the
// location. The window title follows the current place.
import { remapRoute } from './route-remap';
import type { Route, RouteKind, RouteParams } from '../views/routes';

/** The kinds of place a task opens beside, as a panel: those whose parameters take an optional `taskId`. */
type WithPanel = {
  [K in RouteKind]: RouteParams[K] extends { taskId: string }
    ? never
    : 'taskId' extends keyof RouteParams[K]
      ? K
      : never;
}[RouteKind];
/** Where a task opens as the full page instead: every other kind, each listed (one left out does not compile). */
const FULL_PAGE: { readonly [K in Exclude<RouteKind, WithPanel>]: true } = {
  task: true,
  changes: true,
  settings: true,
};

function opensBeside(route: Route): route is Extract<Route, { kind: WithPanel }> {
  return !(route.kind in FULL_PAGE);
}

const MAX_HISTORY = 200;
const MAX_REMAPS = 50;

function sameRoute(a: Route, b: Route): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class Navigation {
  #entries = $state<Route[]>([{ kind: 'home' }]);
  #index = $state(0);
  // Bookkeeping only (applied inside go/replace/remapId); nothing renders from it.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #remapped = new Map<string, string>();
  /** Moves made (go, replace, back, forward): tells whether the user moved since a moment. */
  #moves = 0;

  get route(): Route {
    return this.#entries[this.#index] ?? { kind: 'home' };
  }
  /** How many moves were made so far (a place arriving late opens only if none was since). */
  get moves(): number {
    return this.#moves;
  }
  get canGoBack(): boolean {
    return this.#index > 0;
  }
  get canGoForward(): boolean {
    return this.#index < this.#entries.length - 1;
  }

  /** Goes to a place, dropping any forward history; going where we already are does nothing. */
  go(place: Route): void {
    const route = this.#current(place);
    if (sameRoute(route, this.route)) return;
    this.#moves += 1;
    const kept = this.#entries.slice(0, this.#index + 1);
    kept.push(route);
    const overflow = Math.max(0, kept.length - MAX_HISTORY);
    this.#entries = kept.slice(overflow);
    this.#index = this.#entries.length - 1;
  }

  /** Changes the current place without a new history entry (e.g. a sort or a tab inside it). */
  replace(route: Route): void {
    this.#moves += 1;
    this.#entries[this.#index] = this.#current(route);
  }

  /**
   * An item's local id became the service's: the current place and the history follow it. The
   * last few remaps are kept so a place named by a local id that arrives late (an answer that
   * raced the acknowledgement) is still rewritten.
   */
  remapId(tempId: string, realId: string): void {
    this.#remapped.set(tempId, realId);
    if (this.#remapped.size > MAX_REMAPS) this.#remapped.delete(this.#remapped.keys().next().value ?? '');
    this.#entries = this.#entries.map((route) => remapRoute(route, tempId, realId));
  }

  #current(route: Route): Route {
    let out = route;
    for (const [tempId, realId] of this.#remapped) out = remapRoute(out, tempId, realId);
    return out;
  }

  back(): void {
    if (!this.canGoBack) return;
    this.#moves += 1;
    this.#index -= 1;
  }
  forward(): void {
    if (!this.canGoForward) return;
    this.#moves += 1;
    this.#index += 1;
  }

  /** Opens a task in the detail panel beside the current list, or as the full view elsewhere. */
  openTask(taskId: string, options: { full?: boolean } = {}): void {
    const here = this.route;
    if (!options.full && opensBeside(here)) {
      this.go({ ...here, taskId });
    } else {
      this.go({ kind: 'task', taskId });
    }
  }

  closeTask(): void {
    const here = this.route;
    if (here.kind === 'task') {
      this.back();
    } else if ('taskId' in here && here.taskId) {
      const { taskId: _closed, ...rest } = here;
      this.go(rest as Route);
    }
  }
}

/** The task open beside or as the current place, if any. */
export function openTaskId(route: Route): string | undefined {
  return 'taskId' in route ? route.taskId : undefined;
}

/**
 * Wires the global back/forward gestures: Alt+Left/Right (Cmd+[ and ] too) and the mouse's
 * back/forward buttons. Returns the unsubscribe.
 */
export function bindHistoryGestures(nav: Navigation, target: Window = window): () => void {
  const onKey = (event: KeyboardEvent): void => {
    const back = (event.altKey && event.key === 'ArrowLeft') || (event.metaKey && event.key === '[');
    const forward = (event.altKey && event.key === 'ArrowRight') || (event.metaKey && event.key === ']');
    if (!back && !forward) return;
    event.preventDefault();
    if (back) nav.back();
    else nav.forward();
  };
  const onMouse = (event: MouseEvent): void => {
    if (event.button === 3) {
      event.preventDefault();
      nav.back();
    } else if (event.button === 4) {
      event.preventDefault();
      nav.forward();
    }
  };
  target.addEventListener('keydown', onKey);
  target.addEventListener('mouseup', onMouse);
  return () => {
    target.removeEventListener('keydown', onKey);
    target.removeEventListener('mouseup', onMouse);
  };
}
