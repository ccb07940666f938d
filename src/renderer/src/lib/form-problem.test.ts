import { describe, expect, it } from 'vitest';
import { standingProblem } from './form-problem';

describe('a CRM form problem', () => {
  const problem = { field: 'firstName', message: 'must not be empty', value: '' };

  it('stands while its field holds the value it was found with', () => {
    expect(standingProblem(problem, { firstName: '', email: 'a@b.test' })).toBe(problem);
  });

  it('clears once the field is edited, whatever the other fields do', () => {
    expect(standingProblem(problem, { firstName: 'Rosa', email: '' })).toBeUndefined();
  });

  it('comes back when the field is put back as it was', () => {
    expect(standingProblem(problem, { firstName: '' })).toBe(problem);
  });

  it('is none when there was none', () => {
    expect(standingProblem(undefined, { firstName: '' })).toBeUndefined();
  });
});
