// One task with its thread, laid out for paper: a sheet of plain text nodes (nothing a message
// holds is read as markup) put in the page only while printing, with a print style that shows
// it alone. `window.print()` prints it (the browser, or the system's dialog in the desktop app,
// where "Save as PDF" goes through the shell's printToPDF with the same sheet).
import type { TaskDetail } from '@shared/ipc/tasks';

export interface PrintNames {
  user(id: string | null | undefined): string;
  status(id: string, fallback: string): string;
  priority(value: number): string;
  moment(value: string | null | undefined): string;
}

const STYLE = `
  .print-sheet { display: none; }
  @media print {
    body > :not(.print-sheet) { display: none !important; }
    html, body { height: auto !important; overflow: visible !important; background: #fff !important; }
    .print-sheet { display: block; color: #000; font: 11pt/1.45 system-ui, sans-serif; }
    .print-sheet h1 { font-size: 17pt; margin: 0 0 4pt; }
    .print-sheet .meta { color: #444; margin: 0 0 10pt; }
    .print-sheet dl { display: grid; grid-template-columns: max-content 1fr; gap: 2pt 12pt; margin: 0 0 12pt; }
    .print-sheet dt { color: #555; }
    .print-sheet dd { margin: 0; }
    .print-sheet h2 { font-size: 13pt; border-bottom: 1px solid #999; margin: 14pt 0 6pt; }
    .print-sheet article { break-inside: avoid; margin: 0 0 9pt; }
    .print-sheet .who { font-weight: 600; }
    .print-sheet .when, .print-sheet .files { color: #555; }
    .print-sheet .text { white-space: pre-wrap; margin: 2pt 0 0; }
  }
`;

function el(tag: string, className: string | null, ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.append(...children);
  return node;
}

/** The sheet of one task: title, fields, description, subtasks, messages with their files. */
export function buildPrintSheet(detail: TaskDetail, names: PrintNames): HTMLElement {
  const { task } = detail;
  const sheet = el('div', 'print-sheet');
  sheet.dataset['testid'] = 'print-sheet';
  const style = document.createElement('style');
  style.textContent = STYLE;
  sheet.append(style);
  sheet.append(el('h1', null, task.name));
  sheet.append(
    el(
      'p',
      'meta',
      `#${task.shortId}${detail.project ? ` · ${detail.project.name}` : ''}${detail.parent ? ` · subtask of ${detail.parent.name}` : ''}`,
    ),
  );
  const fields: [string, string][] = [
    ['Status', names.status(task.status.id, task.status.name)],
    ['Assignee', task.assignedToUserId ? names.user(task.assignedToUserId) : '—'],
    ['Action required', task.actionRequiredUserId ? names.user(task.actionRequiredUserId) : '—'],
    ['Priority', names.priority(task.priority)],
    ['Deadline', task.deadline?.slice(0, 10) ?? '—'],
    ['Created', names.moment(task.momentCreated)],
  ];
  if (detail.tags.length) fields.push(['Tags', detail.tags.map((t) => t.name).join(', ')]);
  const list = el('dl', null);
  for (const [label, value] of fields) list.append(el('dt', null, label), el('dd', null, value));
  sheet.append(list);
  if (detail.subtasks.length) {
    sheet.append(el('h2', null, `Subtasks (${detail.subtasks.length})`));
    sheet.append(
      el(
        'ul',
        null,
        ...detail.subtasks.map((s) => el('li', null, `#${s.shortId} ${s.name} — ${s.statusName}`)),
      ),
    );
  }
  sheet.append(el('h2', null, `Messages (${detail.messages.length})`));
  for (const message of detail.messages) {
    const article = el(
      'article',
      null,
      el('span', 'who', names.user(message.fromUserId)),
      ' ',
      el('span', 'when', names.moment(message.dateCreated)),
    );
    if (message.message) article.append(el('p', 'text', message.message));
    if (message.attachments?.length)
      article.append(el('p', 'files', `Files: ${message.attachments.map((a) => a.name).join(', ')}`));
    sheet.append(article);
  }
  return sheet;
}

/** Puts the sheet in the page for `run` (a print), and takes it out after. */
export async function withPrintSheet<T>(sheet: HTMLElement, run: () => Promise<T> | T): Promise<T> {
  document.querySelectorAll('body > .print-sheet').forEach((old) => old.remove());
  document.body.append(sheet);
  try {
    return await run();
  } finally {
    sheet.remove();
  }
}
