import type { CrmContact } from '@shared/api/index';

/**
 * The contact types a picker offers: the service has no list of them (the spec names a
 * contact's `contactType` by id only), so they are the distinct ids the contacts carry, sorted.
 */
export function contactTypeOptions(
  contacts: readonly Pick<CrmContact, 'contactType'>[],
): { value: string; label: string }[] {
  const ids = new Set<string>();
  for (const contact of contacts) if (contact.contactType) ids.add(contact.contactType);
  return [...ids].sort().map((id) => ({ value: id, label: id }));
}
