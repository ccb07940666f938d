// The input of the core's read of my dated tasks (Home's groups): bad input names its own field.
import { describe, expect, it } from 'vitest';
import { DueTasksInput } from './tasks';

/** The fields each error names, as "path: message". */
function errors(input: unknown): string[] {
  const result = DueTasksInput.safeParse(input);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('tasks.due input', () => {
  it('takes two dates in order, the cap defaulted', () => {
    expect(DueTasksInput.parse({ today: '2026-11-28', through: '2026-11-29' })).toEqual({
      today: '2026-11-28',
      through: '2026-11-29',
      perGroup: 10,
    });
    expect(errors({ today: '2026-11-29', through: '2026-11-29' })).toEqual([]);
  });

  it('names through when it is before today', () => {
    expect(errors({ today: '2026-11-29', through: '2026-11-28' })).toEqual([
      'through: must not be before today',
    ]);
  });

  it('names only the field that is not a date', () => {
    expect(errors({ today: 'bad', through: '2026-11-29' })).toEqual([
      'today: must be a date written YYYY-MM-DD',
    ]);
    expect(errors({ today: '2026-11-28', through: '2026-02-30' })).toEqual([
      'through: must be a date written YYYY-MM-DD',
    ]);
  });
});
