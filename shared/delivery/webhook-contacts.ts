/** The `contacts[]` of a `messages` webhook value, read leniently (../shared/meta/usernames-and-bsuid.md §4): who the senders are. */
import * as v from 'valibot';

const contactSchema = v.looseObject({
  wa_id: v.optional(v.string()),
  user_id: v.optional(v.string()),
  profile: v.optional(v.looseObject({ name: v.optional(v.string()), username: v.optional(v.string()) })),
});

/**
 * `contacts[].profile` by the sender's `wa_id` and by their `user_id` (either may be all Meta gives).
 *
 * @example
 * profilesOf([{ profile: { name: 'Ana R.', username: 'ana.r' }, user_id: 'BR.1' }]).get('BR.1'); // { name: 'Ana R.', username: 'ana.r' }
 */
export function profilesOf(contacts: readonly unknown[]): Map<string, { name?: string; username?: string }> {
  const profiles = new Map<string, { name?: string; username?: string }>();
  for (const rawContact of contacts) {
    const contact = v.safeParse(contactSchema, rawContact);
    if (!contact.success || !contact.output.profile) continue;
    const { name, username } = contact.output.profile;
    const profile = { ...(name ? { name } : {}), ...(username ? { username } : {}) };
    for (const id of [contact.output.wa_id, contact.output.user_id]) if (id) profiles.set(id, profile);
  }
  return profiles;
}
