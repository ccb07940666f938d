// Print one task with its thread, or (desktop app) save it as a PDF: the sheet of lib/print-task
// with the names the app shows.
import type { TaskDetail } from '@shared/ipc/tasks';
import { bridge } from '../lib/bridge';
import { formatMoment, priorityLabel } from '../lib/format';
import { buildPrintSheet, withPrintSheet, type PrintNames } from '../lib/print-task';
import { toasts } from '../lib/toasts.svelte';
import { org, sync } from './app';

const names: PrintNames = {
  user: (id) => org.userName(id),
  status: (id, fallback) => org.status(id)?.name ?? fallback,
  priority: (value) => priorityLabel(value) || '—',
  moment: (value) => formatMoment(value, sync.serviceClock),
};

export function printTask(detail: TaskDetail): Promise<void> {
  return withPrintSheet(buildPrintSheet(detail, names), () => window.print());
}

export async function saveTaskPdf(detail: TaskDetail): Promise<void> {
  try {
    const { savedTo } = await withPrintSheet(buildPrintSheet(detail, names), () =>
      bridge.invoke('print.savePdf', { name: `${detail.task.shortId} ${detail.task.name}`.slice(0, 200) }),
    );
    if (savedTo) toasts.show(`Saved ${savedTo}`, 'success');
  } catch (err) {
    toasts.error('Could not save the PDF', err);
  }
}
