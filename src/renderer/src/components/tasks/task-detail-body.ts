// The open task's body (its fields, to-dos, time, relations and thread, whose messages are
// Markdown) is a chunk of its own with the Markdown parser: a start on a list does not evaluate
// it before the first rows. It loads when a task is first opened, or once the first screen is
// drawn and the page is idle (`loadAllViews`), so opening a task later waits for nothing.
import { LazyView } from '../../lib/lazy-view.svelte';

export const taskDetailBody = new LazyView(() => import('./TaskDetailBody.svelte'));
