import { END_BEFORE_START_MESSAGE, endNotBeforeStart } from '../../shared/api/common';
import { badRequest } from '../http/errors';

/** Refuses a task's or project's range (after a change is applied) whose end is before its start. */
export function checkDateRange(startDate: string | null, endDate: string | null): void {
  if (!endNotBeforeStart({ startDate, endDate })) throw badRequest('endDate', END_BEFORE_START_MESSAGE);
}
