// The reconnect scenario both the conflicts test and the accessibility walk build: a task's
// title and priority edited while the service cannot be reached, the same two fields changed by
// a colleague meanwhile, then the service back for reads only (writes fail with 5xx, retried
// later), so the pull sees the colleague's values before ours are sent and records two conflicts.
import type { AppPage } from '../pages/app';
import type { TaskListPage } from '../pages/task-list';
import type { RunningApp } from './web-host';

export interface ConflictTarget {
  id: string;
  name: string;
}

/** Plays the scenario on `target`, its row listed; answers the names each side gave it. */
export async function editWhileColleagueEdits(
  app: RunningApp,
  ui: AppPage,
  list: TaskListPage,
  target: ConflictTarget,
): Promise<{ mine: string; theirs: string }> {
  const mine = `${target.name} (mine)`;
  const theirs = `${target.name} (theirs)`;
  app.faults!.set({ dropBefore: { rate: 1 } });
  await ui.page.getByTestId('sync-now').click();
  await ui.waitForOnline(false);
  await list.rename(target, mine);
  await list.setPriorityInline({ id: target.id, name: mine }, 'Blocker');
  // One entry when the priority folded into the waiting rename (its send was not under way at
  // that moment), two when it was: the timing of the retries decides, both edits wait.
  await ui.waitForPendingCount([1, 2]);
  await list.row(target).getByTestId('cell-priority').filter({ hasText: 'Blocker' }).waitFor();
  // Meanwhile someone else changes the same two fields on the service.
  await app.api(`/task/${target.id}/update`, {
    method: 'PUT',
    body: { userId: app.service!.users.bob, title: theirs, priority: 100 },
  });
  app.faults!.set({ dropBefore: undefined, serverError: { rate: 1, match: /^(PUT|POST|DELETE) / } });
  await ui.waitForOnline(true);
  return { mine, theirs };
}
