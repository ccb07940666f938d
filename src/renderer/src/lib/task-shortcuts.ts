// Plain keys that act on the selected task: the active row of a focused task list (project
// list, My Work, tag, search), else the focused board card, else the task open in the detail
// panel or the full view. They drive the same pickers and editors a pointer uses (the row's
// cells, the detail's fields and message box), so every change still takes one path.
// Contract with those components: rows and cards carry `data-task-id`, a grid names its active
// row in `aria-activedescendant`, the detail's title is `#title-<id>` inside
// `[data-testid="task-detail"]`, its message box is `#composer-<id>`, and the pickers carry the
// test ids below; a row shows its name in `.task-name`, a card in `.title`.
import type { Route } from '../views/routes';
import { openTaskId } from './navigation.svelte';

export type TaskAction = 'status' | 'assign' | 'priority' | 'comment' | 'open' | 'timer';

/** Key (as `event.key`, lower case) to action. */
export const TASK_KEYS: Readonly<Record<string, TaskAction>> = {
  s: 'status',
  a: 'assign',
  p: 'priority',
  c: 'comment',
  o: 'open',
  t: 'timer',
};

/** The keys as the shortcuts help lists them. */
export const TASK_SHORTCUTS: readonly { keys: string; label: string }[] = [
  { keys: 'S', label: 'Change the status of the selected task' },
  { keys: 'A', label: 'Assign the selected task' },
  { keys: 'P', label: 'Set the priority of the selected task' },
  { keys: 'C', label: 'Comment on the selected task' },
  { keys: 'O', label: 'Open the selected task beside the list; again, full size' },
  { keys: 'T', label: 'Start the timer on the selected task; on its task, stop it' },
];

/** The picker each action opens: in a list row, and in the task detail. */
const PICKERS: Record<'status' | 'assign' | 'priority', { row: string; detail: string }> = {
  status: { row: 'cell-status', detail: 'field-status' },
  assign: { row: 'cell-assignee', detail: 'field-assignee' },
  priority: { row: 'cell-priority', detail: 'field-priority' },
};

export interface SelectedTask {
  taskId: string;
  /** Where it was picked: a list row, a board card, or the open detail. */
  from: 'row' | 'card' | 'detail';
  row?: Element | undefined;
}

/** The task the keys act on, if any; `focus` is what has the keys (the palette's: what had them). */
export function selectedTask(
  doc: Document,
  route: Route,
  focus: Element | null = doc.activeElement,
): SelectedTask | undefined {
  const grid = focus?.closest('[role="grid"]');
  if (grid) {
    const activeId = grid.getAttribute('aria-activedescendant');
    const row = activeId ? doc.getElementById(activeId) : null;
    const taskId = row?.getAttribute('data-task-id');
    if (row && taskId) return { taskId, from: 'row', row };
  }
  const cardId = focus?.closest('[data-testid="board-card"]')?.getAttribute('data-task-id');
  if (cardId) return { taskId: cardId, from: 'card' };
  const open = route.kind === 'task' ? route.taskId : openTaskId(route);
  return open ? { taskId: open, from: 'detail' } : undefined;
}

/** The selected task's name as its row, card or detail shows it (for the timer's words). */
export function selectedTaskName(doc: Document, selected: SelectedTask): string {
  const { taskId } = selected;
  const shown =
    selected.row?.querySelector('.task-name')?.textContent ??
    (selected.from === 'card'
      ? doc.querySelector(`[data-testid="board-card"][data-task-id="${CSS.escape(taskId)}"] .title`)
          ?.textContent
      : doc.querySelector<HTMLTextAreaElement>(`#${CSS.escape(`title-${taskId}`)}`)?.value);
  return shown?.trim() || 'the selected task';
}

/** A field, button or editable element has the keys: they type, not command. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Waits (a few seconds at most) until `find` answers an element: the detail renders async. */
async function waitForElement<T extends Element>(find: () => T | null | undefined): Promise<T | undefined> {
  for (let i = 0; i < 150; i++) {
    const found = find();
    if (found) return found;
    await new Promise((done) => setTimeout(done, 20));
  }
  return undefined;
}

function detailOf(doc: Document, taskId: string): Element | null | undefined {
  return doc.getElementById(`title-${taskId}`)?.closest('[data-testid="task-detail"]');
}

export interface TaskNavigation {
  route: Route;
  openTask(taskId: string, options?: { full?: boolean }): void;
}

/** Runs `action` on the selected task (the timer's is the timer state's: `shortcuts.ts`). */
export async function runTaskAction(
  action: Exclude<TaskAction, 'timer'>,
  selected: SelectedTask,
  nav: TaskNavigation,
  doc: Document = document,
): Promise<void> {
  const { taskId } = selected;
  if (action === 'open') {
    // A row or card whose task is already open beside the list goes full size, as the open
    // detail does: O again is never a key that does nothing.
    const besideAlready = selected.from !== 'detail' && openTaskId(nav.route) === taskId;
    if (selected.from !== 'detail' && !besideAlready) nav.openTask(taskId);
    else if (nav.route.kind !== 'task') nav.openTask(taskId, { full: true });
    return;
  }
  if (action !== 'comment' && selected.row) {
    selected.row.querySelector<HTMLElement>(`[data-testid="${PICKERS[action].row}"]`)?.click();
    return;
  }
  // Everything else happens in the task's detail, opened beside the list when it is not shown.
  if (!detailOf(doc, taskId)) nav.openTask(taskId);
  if (action === 'comment') {
    const box = await waitForElement(() => doc.getElementById(`composer-${taskId}`));
    box?.scrollIntoView({ block: 'nearest' });
    box?.focus();
    return;
  }
  const picker = await waitForElement(() =>
    detailOf(doc, taskId)?.querySelector<HTMLElement>(`[data-testid="${PICKERS[action].detail}"]`),
  );
  picker?.click();
}
