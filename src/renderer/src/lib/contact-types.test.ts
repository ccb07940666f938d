import { describe, expect, it } from 'vitest';
import { contactTypeOptions } from './contact-types';

describe('contactTypeOptions', () => {
  it('offers each type the contacts carry once, sorted, and skips contacts without one', () => {
    const contacts = [
      { contactType: 'ct-partner' },
      { contactType: null },
      { contactType: 'ct-customer' },
      { contactType: 'ct-partner' },
      { contactType: '' },
    ];
    expect(contactTypeOptions(contacts)).toEqual([
      { value: 'ct-customer', label: 'ct-customer' },
      { value: 'ct-partner', label: 'ct-partner' },
    ]);
  });

  it('offers nothing when no contact has a type', () => {
    expect(contactTypeOptions([{ contactType: null }])).toEqual([]);
  });
});
