/**
 * What a campaign reads of any audience (`MemberSource`), answered by the audience store for saved
 * audiences and by the inbox for `contacts`: the organization's v1 contacts, oldest first, each with
 * its tags and attributes (plus `name` and `email` as attributes when the contact has them and no
 * attribute of that name), keyed as members are (shared/audiences/person-key.ts: a BSUID-only
 * contact the contact book pairs with a number is that number's person).
 */
import { CONTACTS_AUDIENCE_ID, type Audience, type AudienceMember } from '../audiences/audience';
import type { AudienceStore, MemberPage, MemberSource, PageRequest } from '../audiences/ports';
import { personOf, splitInternationalNumber, unpairedUserIds, type PersonIdentity } from '../audiences/person-key';
import { counterpartOf, type ContactBook } from '../inbox/contact-book';
import type { Contact } from '../inbox/inbox-entities';
import type { InboxRepository } from '../inbox/ports';
import type { Clock } from '../ports/clock';
import { optOutKeyFormsOf } from '../recipients/opt-out-key';

export interface AudienceMemberSourcePorts {
  audiences: Pick<AudienceStore, 'getAudience' | 'readMembers' | 'membersAmong'>;
  inbox: Pick<InboxRepository, 'readContacts' | 'listContacts' | 'getContactPhoneNumberClaim'>;
  contactBook: Pick<ContactBook, 'pairsOf'>;
  clock: Clock;
}

const identityOf = (contact: Contact): PersonIdentity => ({
  ...(contact.phoneNumber === null ? {} : { phone: splitInternationalNumber(contact.phoneNumber) }),
  ...(contact.userId === undefined ? {} : { userId: contact.userId }),
});

/**
 * The member a v1 contact is, given the contact book's pairs of its BSUID (a contact without a
 * number); undefined for a contact with neither number nor BSUID (none is stored so).
 *
 * @example
 * contactMember({ contactId: 'ct_1', organizationId: 'o', phoneNumber: '447700900123', name: 'Ada', tags: ['vip'],
 *   attributes: { city: 'Leeds' }, createdAt: 'T', updatedAt: 'T' }, new Map());
 * // { personKey: '447700900123', to: '447700900123', countryCode: '44', toPhoneNumber: '7700900123',
 * //   attributes: { city: 'Leeds', name: 'Ada' }, tags: ['vip'], updatedAt: 'T' }
 */
export function contactMember(contact: Contact, pairs: Parameters<typeof personOf>[1]): AudienceMember | undefined {
  if (contact.phoneNumber === null && contact.userId === undefined) return undefined;
  const { numberFromPair: _fromPair, ...person } = personOf(identityOf(contact), pairs);
  const attributes = { ...contact.attributes };
  // The contact's own fields as attributes a template can use, unless an attribute already has the name.
  if (contact.name !== '' && !('name' in attributes)) attributes.name = contact.name;
  if (contact.email !== undefined && !('email' in attributes)) attributes.email = contact.email;
  return { ...person, attributes, tags: [...contact.tags], updatedAt: contact.updatedAt };
}

export class AudienceMemberSource implements MemberSource {
  constructor(private readonly ports: AudienceMemberSourcePorts) {}

  async describeAudience(organizationId: string, audienceId: string): Promise<Audience | undefined> {
    if (audienceId !== CONTACTS_AUDIENCE_ID) return this.ports.audiences.getAudience(organizationId, audienceId);
    return contactsAudience(this.ports, organizationId);
  }

  async readMembers(organizationId: string, audienceId: string, page: PageRequest): Promise<MemberPage> {
    if (audienceId !== CONTACTS_AUDIENCE_ID) return this.ports.audiences.readMembers(organizationId, audienceId, page);
    const read = await this.ports.inbox.readContacts(organizationId, page);
    const pairs = await this.ports.contactBook.pairsOf(organizationId, unpairedUserIds(read.contacts.map(identityOf)));
    const members = read.contacts.flatMap((contact) => contactMember(contact, pairs) ?? []);
    return read.nextCursor === undefined ? { members } : { members, nextCursor: read.nextCursor };
  }

  async membersAmong(organizationId: string, audienceId: string, personKeys: readonly string[]): Promise<Set<string>> {
    if (audienceId !== CONTACTS_AUDIENCE_ID) return new Set((await this.ports.audiences.membersAmong(organizationId, audienceId, personKeys)).keys());
    return contactsAmong(this.ports, organizationId, personKeys);
  }
}

/** The `contacts` audience: always there, counted by the inbox's contact counter. */
async function contactsAudience(ports: AudienceMemberSourcePorts, organizationId: string): Promise<Audience> {
  const [{ total }, oldest] = await Promise.all([
    ports.inbox.listContacts(organizationId, {}, { offset: 0, limit: 1 }),
    ports.inbox.readContacts(organizationId, { limit: 1 }),
  ]);
  const now = ports.clock.now().toISOString();
  return {
    audienceId: CONTACTS_AUDIENCE_ID,
    organizationId,
    name: CONTACTS_AUDIENCE_ID,
    memberCount: total,
    createdAt: oldest.contacts[0]?.createdAt ?? now,
    updatedAt: now,
  };
}

/**
 * Which person keys are contacts: a contact claims its number (as written, so every form of the
 * key is looked up) or its BSUID; a person keyed by a number may be a BSUID-only contact paired with it.
 */
async function contactsAmong(ports: AudienceMemberSourcePorts, organizationId: string, personKeys: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(personKeys)];
  const pairs = await ports.contactBook.pairsOf(organizationId, unique);
  const found = new Set<string>();
  await Promise.all(
    unique.map(async (key) => {
      const pair = pairs.get(key);
      const candidates = [...optOutKeyFormsOf(key), ...(pair ? [counterpartOf(pair, key)] : [])];
      for (const candidate of candidates) {
        if (await ports.inbox.getContactPhoneNumberClaim(organizationId, candidate)) return void found.add(key);
      }
    }),
  );
  return found;
}
