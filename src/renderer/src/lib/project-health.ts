// A project's health as words. The service takes 0, 1, 2 (or none) and the spec does not say
// what they mean; the app has always colored them green, amber and red in that order, so it
// names them by those colors instead of showing the number ("Health 2" told a user nothing).

export interface HealthValue {
  value: 0 | 1 | 2;
  word: string;
  color: string;
}

export const PROJECT_HEALTH: readonly HealthValue[] = [
  { value: 0, word: 'Green', color: 'var(--color-success)' },
  { value: 1, word: 'Amber', color: 'var(--color-warning)' },
  { value: 2, word: 'Red', color: 'var(--color-danger)' },
];
