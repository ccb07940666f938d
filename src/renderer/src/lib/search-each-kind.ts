// Full-text search asked kind by kind. One search over every kind ranks its hits together, and
// the messages that repeat a task's words ("Please plan audit log.") took every place: "audit"
// listed no task at all. Asked per kind, each kind gets its share, and the answer lists the kinds
// in a fixed order (tasks, projects, messages, documents, contacts, accounts), best first in each.
import { SearchKind, type SearchHit } from '@shared/ipc/search';
import type { Bridge } from './bridge';

export async function searchEachKind(bridge: Bridge, text: string, perKind: number): Promise<SearchHit[]> {
  const answers = await Promise.all(
    SearchKind.options.map((kind) => bridge.invoke('search.query', { text, kinds: [kind], limit: perKind })),
  );
  return answers.flatMap((answer) => answer.hits);
}
