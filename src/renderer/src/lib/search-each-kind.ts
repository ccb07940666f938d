// Full-text search asked kind by kind. One search over every kind ranks its hits together, and
// the messages that repeat a task's words ("Please plan audit log.") took every place: "audit"
// listed no task at all. Asked per kind, each kind gets its share, and the answer lists the kinds
// in a fixed order (tasks, projects, messages, documents, events, contacts, accounts), best first
// in each. `near` is the project being looked at: its items come first in each kind.
import { SearchKind, type SearchHit } from '@shared/ipc/search';
import type { Bridge } from './bridge';

export async function searchEachKind(
  bridge: Bridge,
  text: string,
  perKind: number,
  near?: string | undefined,
): Promise<SearchHit[]> {
  const answers = await Promise.all(
    SearchKind.options.map((kind) =>
      bridge.invoke('search.query', { text, kinds: [kind], limit: perKind, ...(near ? { near } : {}) }),
    ),
  );
  return answers.flatMap((answer) => answer.hits);
}

/** The project a place shows, whose items a search ranks first. */
export function projectOfRoute(route: { kind: string; projectId?: string }): string | undefined {
  return route.kind === 'project' ? route.projectId : undefined;
}
