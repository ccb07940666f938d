import { describe, expect, it } from 'vitest';
import { childrenCpuMs } from './machine';

describe('childrenCpuMs', () => {
  it('reads cutime + cstime (fields 16 and 17) in ms, past a command name with spaces', () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    fields[16 - 3] = '250';
    fields[17 - 3] = '40';
    expect(childrenCpuMs(`1234 (node (a b)) ${fields.join(' ')}`)).toBe(2900);
  });

  it('answers undefined for a line it cannot read', () => {
    expect(childrenCpuMs('garbage')).toBeUndefined();
  });

  it('reads this process (Linux)', () => {
    expect(childrenCpuMs()).toBeGreaterThanOrEqual(0);
  });
});
