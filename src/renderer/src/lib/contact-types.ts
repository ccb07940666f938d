import type { CrmContact } from '@shared/api/crm';

/**
 * A contact's type is labelled "Type" and shows the service's id for it (its hint says so): the
 * spec lists no contact types and no endpoint names them, so a name the app showed would be
 * made up, and a user should not read "id" in a label.
 */
export const CONTACT_TYPE_LABEL = 'Type';
export const CONTACT_TYPE_HINT =
  'The id the service gives this contact type; the service lists no type names.';

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
