// Small facts about the demo seed and dates, shared by the end-to-end suites.

/** Tasks whose name no other task in the list shares (a search by name finds just that one). */
export function uniquelyNamed<T extends { name: string }>(tasks: readonly T[]): T[] {
  const counts = new Map<string, number>();
  for (const task of tasks) counts.set(task.name, (counts.get(task.name) ?? 0) + 1);
  return tasks.filter((task) => counts.get(task.name) === 1);
}

/** Today plus `offset` days as YYYY-MM-DD, in local time (as the app shows days). */
export function dayString(offset: number): string {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
