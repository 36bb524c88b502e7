/**
 * Which of a webhook value's `contacts[]` an element of its lists names, so a part of a split batch
 * carries only the contacts of its own messages and statuses (webhook-batch-split.ts). Meta's
 * contacts carry `wa_id` (the number, when shown), `user_id` (the BSUID, always) and `parent_user_id`
 * (../shared/meta/usernames-and-bsuid.md §4, §5); messages name their sender by `from`,
 * `from_user_id`, `from_parent_user_id`, statuses their recipient by `recipient_id`,
 * `recipient_user_id`, `recipient_parent_user_id` (and the `recipient_participant_*` of groups),
 * `user_preferences` entries by `wa_id` / `user_id`.
 *
 * An element names a contact when one of the element's top-level string values equals one of the
 * contact's ids: no field list to keep in step with Meta, and a value that matches by chance only
 * adds a contact to a part (never drops one).
 */

type Json = Record<string, unknown>;

const CONTACT_ID_FIELDS = ['wa_id', 'user_id', 'parent_user_id'] as const;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface ContactIndex {
  /** Positions in `contacts[]` of the contacts the element names, ascending order not guaranteed. */
  namedBy(element: unknown): number[];
  /** Positions of the contacts no element of the given lists names (kept with a change's first part). */
  unnamed(lists: ReadonlyArray<readonly unknown[]>): number[];
}

/**
 * An index of the contacts by each of their ids.
 *
 * @example
 * const index = contactIndexOf([{ wa_id: '5215511112222', user_id: 'MX.1' }, { user_id: 'BR.2' }]);
 * index.namedBy({ from_user_id: 'BR.2', id: 'wamid.1' }); // [1]
 */
export function contactIndexOf(contacts: readonly unknown[]): ContactIndex {
  const byId = new Map<string, number[]>();
  contacts.forEach((contact, position) => {
    if (!isObject(contact)) return;
    for (const field of CONTACT_ID_FIELDS) {
      const id = contact[field];
      if (typeof id !== 'string' || id === '') continue;
      const positions = byId.get(id);
      if (positions === undefined) byId.set(id, [position]);
      else if (!positions.includes(position)) positions.push(position);
    }
  });
  const namedBy = (element: unknown): number[] => {
    if (!isObject(element)) return [];
    const named: number[] = [];
    for (const value of Object.values(element)) {
      if (typeof value !== 'string') continue;
      for (const position of byId.get(value) ?? []) if (!named.includes(position)) named.push(position);
    }
    return named;
  };
  return {
    namedBy,
    unnamed(lists) {
      const seen = new Set<number>();
      for (const list of lists) for (const element of list) for (const position of namedBy(element)) seen.add(position);
      return contacts.map((_, position) => position).filter((position) => !seen.has(position));
    },
  };
}
