// The task grid's cells (select, name, project, status, assignee, action required, priority,
// deadline, progress), made and filled by hand. A grid re-fills its rows with other tasks at every
// scroll step and makes a screenful of them at every navigation; as Svelte markup and components,
// a row's cells cost most of its script, in making and running their effects. Here a row's cells
// are cloned from one template once, and a fill writes only what changed.
//
// The markup is what the grid had as components (roles, names, test ids and classes are the
// same): status and assignee are buttons that look like a compact picker, the priority is the
// badge (styles/chips.css), the action-required user a chip, the progress a bar. An editor (a
// cell's Picker, the date input, the rename input) stays Svelte markup in the row
// (TaskRowView), made only while it is used: `place` then puts the cells either side of it, with
// the cell it edits left out. The cells' buttons are out of the Tab order: the grid is one stop
// (its rows are moved through with the arrows, and the selected task's status, assignee and
// priority have keys), else leaving a list took a Tab for each button of every row in the page.
import { fitText } from './fit-text';
import { shortIdLabel } from './format';

export type PickerCell = 'status' | 'assignee' | 'priority';
/** A cell whose editor takes its place while it is used. */
export type EditedCell = PickerCell | 'deadline' | 'rename';

/** What the select and name cells show: all a lite row (a flung list's) shows. */
export interface RowHeadView {
  name: string;
  shortId: string;
  selected: boolean;
}

/** What the other cells show, every text and label worked out by the row. */
export interface RowCellsView {
  /**
   * For a subtask, whose it is ("subtask of …"); '' for a top-level task. Shown after the name
   * in whole rows only: a flung row's note is hidden (the row's `lite` class), not written.
   */
  parent: string;
  /**
   * How many files the task's messages carry: a paperclip and the count after the name (whole
   * rows only, like the subtask note), nothing at 0.
   */
  files: number;
  /**
   * To-do progress over the task's lists ("3/5" and its words) after the name, whole rows only
   * like the files; undefined for a task without items (most rows: nothing is written).
   */
  todos: { text: string; label: string } | undefined;
  /** The project's name, when the grid has a project column. */
  project: string | undefined;
  status: { label: string; text: string; color: string | undefined };
  assignee: { label: string; text: string };
  /** The user whose action is required: initials and name, or undefined for none. */
  actionRequired: { initials: string; name: string } | undefined;
  priority: { label: string; text: string; tone: string };
  deadline: { label: string; text: string; overdue: boolean };
  /** Percent done, or null when not set. */
  progress: number | null;
}

export interface RowCellsActions {
  edit: (cell: Exclude<EditedCell, 'rename'>) => void;
  /** A key on a picker cell (opens it on ArrowDown, Enter or Space). */
  pickKey: (event: KeyboardEvent, cell: PickerCell) => void;
  rename: () => void;
  /** The select checkbox was clicked: toggles the row in the selection. */
  toggle: () => void;
}

const NONE = '—';

/** The cells in column order, made once and cloned for every row. */
let template: DocumentFragment | undefined;
const PROJECT = 2;

function element(
  tag: string,
  attributes: Record<string, string>,
  ...children: (Node | string)[]
): HTMLElement {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  made.append(...children);
  return made;
}

function cellsTemplate(): DocumentFragment {
  if (template) return template;
  const picker = (cell: PickerCell, className: string): HTMLElement =>
    element('button', {
      type: 'button',
      role: 'gridcell',
      class: className,
      'aria-haspopup': 'listbox',
      'aria-expanded': 'false',
      'data-testid': `cell-${cell}`,
      tabindex: '-1',
    });
  const cell = (className: string, ...children: Node[]): HTMLElement =>
    element('span', { role: 'gridcell', class: className }, ...children);
  template = document.createDocumentFragment();
  template.append(
    cell('check', element('input', { type: 'checkbox', tabindex: '-1' })),
    cell(
      'name',
      element('span', { class: 'short' }),
      element('span', { class: 'task-name', role: 'presentation' }),
      element('span', { class: 'parent-task none' }),
      element('span', { class: 'row-files none' }),
      element('span', { class: 'row-todos none' }),
      element('button', { type: 'button', class: 'icon-btn rename-btn', tabindex: '-1' }, '✎'),
    ),
    cell('muted cell project', element('span', { class: 'project-name' })),
    picker('status', 'pick cell-fit'),
    picker('assignee', 'pick cell-fit'),
    cell('user-chip cell-fit', element('span', { class: 'initials', 'aria-hidden': 'true' })),
    picker('priority', 'priority-badge is-button cell-fit'),
    element('button', {
      type: 'button',
      role: 'gridcell',
      class: 'deadline cell-fill',
      'data-testid': 'cell-deadline',
      tabindex: '-1',
    }),
    cell('progress-bar cell-fill'),
  );
  return template;
}

/**
 * The text node an element's text is written to. Setting `textContent` replaces the element's
 * text node, and Chromium builds the new node's layout object and style; changing the data of
 * the one node only lays its text out again.
 */
function textIn(element: HTMLElement): Text {
  const text = document.createTextNode('');
  element.append(text);
  return text;
}

/** Writes a text or attribute only when it changed (a write restyles or re-lays out). */
function setText(node: Text, text: string): void {
  if (node.data !== text) node.data = text;
}
function setAttribute(node: Element, name: string, value: string | undefined): void {
  if (value === undefined) {
    if (node.hasAttribute(name)) node.removeAttribute(name);
  } else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}
function setStyle(node: HTMLElement, property: string, value: string | undefined): void {
  if (value === undefined) {
    if (node.style.getPropertyValue(property)) node.style.removeProperty(property);
  } else if (node.style.getPropertyValue(property) !== value) node.style.setProperty(property, value);
}
function setClass(node: Element, name: string, on: boolean): void {
  if (node.classList.contains(name) !== on) node.classList.toggle(name, on);
}

/**
 * Makes `cells` consecutive siblings, the first at `first` (put there by `start`), moving only
 * those out of place: moving an element takes the focus out of it.
 */
function follow(
  cells: readonly HTMLElement[],
  first: ChildNode | null,
  start: (cell: HTMLElement) => void,
): void {
  let previous: HTMLElement | undefined;
  for (const cell of cells) {
    if (previous ? cell.previousSibling !== previous : cell !== first) {
      if (previous) previous.after(cell);
      else start(cell);
    }
    previous = cell;
  }
}

export class TaskRowCells {
  /** Every cell, in column order (the project's is left out of the row without a project column). */
  readonly #all: HTMLElement[];
  readonly #check: HTMLInputElement;
  readonly #name: HTMLElement;
  readonly #parent: HTMLElement;
  readonly #files: HTMLElement;
  readonly #todos: HTMLElement;
  readonly #renameButton: HTMLElement;
  readonly #status: HTMLElement;
  readonly #assignee: HTMLElement;
  readonly #chip: HTMLElement;
  readonly #priority: HTMLElement;
  readonly #deadline: HTMLElement;
  readonly #progress: HTMLElement;
  /** The cells' texts (see `textIn`). */
  readonly #text: Record<
    | 'short'
    | 'name'
    | 'parent'
    | 'files'
    | 'todos'
    | 'project'
    | 'status'
    | 'assignee'
    | 'initials'
    | 'chipName'
    | 'priority'
    | 'deadline'
    | 'progress',
    Text
  >;
  readonly #unfit: (() => void)[] = [];
  #tone = '';
  #showProject = false;

  constructor(actions: RowCellsActions) {
    const cells = [...cellsTemplate().cloneNode(true).childNodes] as HTMLElement[];
    this.#all = cells;
    const [check, name, project, status, assignee, chip, priority, deadline, progress] = cells as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    this.#check = check.firstChild as HTMLInputElement;
    const [short, nameText, parent, files, todos, renameButton] = [...name.children] as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    this.#files = files;
    this.#todos = todos;
    this.#name = nameText;
    this.#parent = parent;
    this.#renameButton = renameButton;
    const projectName = project.firstChild as HTMLElement;
    this.#status = status;
    this.#assignee = assignee;
    this.#chip = chip;
    this.#text = {
      short: textIn(short),
      name: textIn(nameText),
      parent: textIn(parent),
      files: textIn(files),
      todos: textIn(todos),
      project: textIn(projectName),
      status: textIn(status),
      assignee: textIn(assignee),
      initials: textIn(chip.firstChild as HTMLElement),
      // After the initials' circle: the chip's own text, its user's name.
      chipName: textIn(chip),
      priority: textIn(priority),
      deadline: textIn(deadline),
      progress: textIn(progress),
    };
    this.#priority = priority;
    this.#deadline = deadline;
    this.#progress = progress;

    this.#check.addEventListener('click', (event) => {
      event.stopPropagation();
      actions.toggle();
    });
    this.#name.addEventListener('dblclick', () => actions.rename());
    this.#renameButton.addEventListener('click', (event) => {
      event.stopPropagation();
      actions.rename();
    });
    for (const [cell, kind] of [
      [status, 'status'],
      [assignee, 'assignee'],
      [priority, 'priority'],
    ] as const) {
      cell.addEventListener('click', () => actions.edit(kind));
      cell.addEventListener('keydown', (event) => actions.pickKey(event, kind));
    }
    deadline.addEventListener('click', () => actions.edit('deadline'));
    for (const node of [nameText, parent, projectName, status, assignee, chip]) {
      const undo = fitText(node);
      if (undo) this.#unfit.push(undo);
    }
  }

  fillHead(view: RowHeadView): void {
    this.#check.checked = view.selected;
    setAttribute(this.#check, 'aria-label', `Select ${view.name}`);
    setText(this.#text.short, shortIdLabel(view.shortId));
    setText(this.#text.name, view.name);
    setAttribute(this.#renameButton, 'aria-label', `Rename ${view.name}`);
  }

  /** Fills the cells after the name (not asked while the row is lite: they are out of the page). */
  fill(view: RowCellsView): void {
    setClass(this.#parent, 'none', !view.parent);
    setText(this.#text.parent, view.parent);
    // Most rows have no file: the class and text stay as they are, nothing is written.
    setClass(this.#files, 'none', view.files === 0);
    setText(this.#text.files, view.files ? String(view.files) : '');
    setAttribute(
      this.#files,
      'aria-label',
      view.files ? `${view.files} ${view.files === 1 ? 'file' : 'files'}` : undefined,
    );
    setClass(this.#todos, 'none', !view.todos);
    setText(this.#text.todos, view.todos?.text ?? '');
    setAttribute(this.#todos, 'aria-label', view.todos?.label);
    this.#showProject = view.project !== undefined;
    setText(this.#text.project, view.project ?? '');

    const { status, assignee, actionRequired, priority, deadline, progress } = view;
    setAttribute(this.#status, 'aria-label', status.label);
    setClass(this.#status, 'dot', status.color !== undefined);
    setStyle(this.#status, '--dot', status.color);
    setText(this.#text.status, status.text || NONE);

    setAttribute(this.#assignee, 'aria-label', assignee.label);
    setText(this.#text.assignee, assignee.text || NONE);

    // One element with or without a user: its initials' circle is kept, zero-wide, without one.
    setClass(this.#chip, 'none', !actionRequired);
    setText(this.#text.initials, actionRequired?.initials ?? '');
    setText(this.#text.chipName, actionRequired?.name ?? NONE);

    setAttribute(this.#priority, 'aria-label', priority.label);
    if (this.#tone !== priority.tone) {
      if (this.#tone) this.#priority.classList.remove(this.#tone);
      if (priority.tone) this.#priority.classList.add(priority.tone);
      this.#tone = priority.tone;
    }
    setText(this.#text.priority, priority.text);

    setAttribute(this.#deadline, 'aria-label', deadline.label);
    setClass(this.#deadline, 'overdue', deadline.overdue);
    setText(this.#text.deadline, deadline.text || NONE);

    // The bar is custom properties only: a class would make Chromium build its boxes again.
    setAttribute(this.#progress, 'aria-label', progress === null ? 'Progress: none' : undefined);
    setStyle(this.#progress, '--done', `${progress ?? 0}%`);
    setStyle(this.#progress, '--track', progress === null ? 'transparent' : undefined);
    setText(this.#text.progress, progress === null ? NONE : `${progress}%`);
  }

  /**
   * Puts the cells in `row`: all of them, or for a lite row (a flung list) the select and name
   * cells only; while an editor is open (`editor`, the element standing for `edited`), either side
   * of it, with the edited cell left out. Cells already in order are not moved.
   */
  place(row: HTMLElement, lite: boolean, edited?: { cell: EditedCell; editor: Element }): void {
    const shown = this.#all.filter((_, i) => i !== PROJECT || this.#showProject);
    const cells = lite && !edited ? shown.slice(0, 2) : shown;
    setClass(row, 'lite', lite && !edited);
    const at = edited ? cells.indexOf(this.#cellOf(edited.cell)) : -1;
    for (const cell of this.#all)
      if (cell.parentNode && (!cells.includes(cell) || cell === cells[at])) cell.remove();
    if (!edited) {
      follow(cells, row.firstChild, (cell) => row.prepend(cell));
      return;
    }
    const { editor } = edited;
    // The cells before the editor, last first, each just before the next.
    let next: Element = editor;
    for (const cell of cells.slice(0, at).reverse()) {
      if (cell.nextSibling !== next) next.before(cell);
      next = cell;
    }
    follow(cells.slice(at + 1), editor.nextSibling, (cell) => editor.after(cell));
  }

  destroy(): void {
    for (const cell of this.#all) cell.remove();
    for (const undo of this.#unfit) undo();
  }

  #cellOf(cell: EditedCell): HTMLElement {
    switch (cell) {
      case 'rename':
        return this.#all[1] as HTMLElement;
      case 'status':
        return this.#status;
      case 'assignee':
        return this.#assignee;
      case 'priority':
        return this.#priority;
      case 'deadline':
        return this.#deadline;
    }
  }
}
