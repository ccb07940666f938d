import { storeUserTimeReports, timeReportWindow, type PullContext } from '../sync/pull';
import type { EntityDescriptor } from './types';

/** The acting user's time reports of the last weeks (My Time); older weeks are read on demand. */
async function pullMyTimeReports(ctx: PullContext): Promise<void> {
  const { deps, gate } = ctx;
  const range = timeReportWindow(deps.clock());
  await ctx.isolated(`/user/${encodeURIComponent(deps.userId)}/time-reports`, async () => {
    const list = await gate((s) => deps.client.userTimeReports(deps.userId, range, s));
    storeUserTimeReports(deps, range, list);
  });
}

export const timeReport: EntityDescriptor<'timeReport'> = {
  views: ['timeReports'],
  tables: [
    { name: 'time_reports', localId: 'id', refs: ['task_id', 'project_id'] },
    // The running timer follows its task when a task created offline gets its real id.
    { name: 'timer', refs: ['task_id'] },
  ],
  pull: [{ phase: 'tasks', run: pullMyTimeReports }],
  // A task's reports are fetched when it is opened (`sync/on-demand.ts`); none is fetched alone.
};
