import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import { normalizeEmail } from '../tenancy/tenancy-entities';
import { ContactAlreadyExistsError, ContactNotFoundError } from './errors';
import { normalizeTag, type AttributeValue, type Contact, type ContactFilter } from './inbox-entities';
import type { InboxRepository } from './ports';

export interface InboxPorts {
  inbox: InboxRepository;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * A claim whose record is still missing after this long belongs to a request that died between
 * its two writes: no v1 request lives longer (function timeout 10 s, API Gateway 29 s).
 */
export const abandonedClaimAfterMs = 60_000;

export const isAbandoned = (claimedAt: string, now: Date): boolean => now.getTime() - Date.parse(claimedAt) >= abandonedClaimAfterMs;

/** Rounds of claim take-over before giving up (each round needs a concurrent writer to lose). */
export const maxClaimAttempts = 3;

export interface CreateContactInput {
  organizationId: string;
  /** Null only for a contact made from a user Meta knows only by BSUID (then `userId` is given). */
  phoneNumber: string | null;
  /** The user's business-scoped user id (inbound messages only; the v1 API does not take one). */
  userId?: string;
  /** Display only. */
  username?: string;
  name: string;
  email?: string;
  tags?: readonly string[];
  attributes?: Readonly<Record<string, AttributeValue>>;
}

/**
 * Creates a contact. The phone number (or, for a BSUID-only user, the BSUID) is claimed first (409 ContactAlreadyExistsError when another
 * contact holds it), then the contact is written. A claim whose contact never appeared (the request
 * died in between) is taken over once it is older than `abandonedClaimAfterMs`.
 */
export async function createContact(ports: InboxPorts, input: CreateContactInput): Promise<Contact> {
  const now = ports.clock.now();
  const at = now.toISOString();
  const email = input.email === undefined ? undefined : normalizeEmail(input.email);
  const contact: Contact = {
    contactId: ports.ids.newId('ct'),
    organizationId: input.organizationId,
    phoneNumber: input.phoneNumber,
    ...(input.userId === undefined ? {} : { userId: input.userId }),
    ...(input.username === undefined ? {} : { username: input.username }),
    name: input.name.trim(),
    ...(email ? { email } : {}),
    tags: [...new Set((input.tags ?? []).map(normalizeTag).filter((tag) => tag !== ''))],
    attributes: { ...input.attributes },
    createdAt: at,
    updatedAt: at,
  };

  // The number is the contact's claim when it has one (as before BSUIDs); a BSUID-only contact claims its BSUID.
  const claimed = contact.phoneNumber ?? contact.userId;
  if (claimed === undefined) throw new TypeError('A contact needs a phone number or a business-scoped user id');
  let replacing: string | undefined;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await ports.inbox.claimContactPhoneNumber(
      { organizationId: contact.organizationId, phoneNumber: claimed, contactId: contact.contactId, claimedAt: at },
      replacing,
    );
    if (outcome.claimed) break;
    const holder = outcome.holder;
    const abandoned =
      attempt < maxClaimAttempts &&
      isAbandoned(holder.claimedAt, now) &&
      (await ports.inbox.getContact(contact.organizationId, holder.contactId)) === undefined;
    if (!abandoned) throw new ContactAlreadyExistsError(claimed, holder.contactId);
    replacing = holder.contactId;
  }
  await ports.inbox.insertContact(contact);
  return contact;
}

export async function getContact(ports: Pick<InboxPorts, 'inbox'>, organizationId: string, contactId: string): Promise<Contact> {
  const contact = await ports.inbox.getContact(organizationId, contactId);
  if (!contact) throw new ContactNotFoundError(contactId);
  return contact;
}

export interface PageRequest {
  /** 1-based. */
  page: number;
  pageSize: number;
}

export interface Page<T> extends PageRequest {
  items: T[];
  total: number;
}

export const windowOf = ({ page, pageSize }: PageRequest) => ({ offset: (page - 1) * pageSize, limit: pageSize });

export async function listContacts(
  ports: Pick<InboxPorts, 'inbox'>,
  input: { organizationId: string; filter: ContactFilter } & PageRequest,
): Promise<Page<Contact>> {
  const filter: ContactFilter = {
    ...(input.filter.tag !== undefined ? { tag: normalizeTag(input.filter.tag) } : {}),
    ...(input.filter.search !== undefined && input.filter.search.trim() !== '' ? { search: input.filter.search.trim() } : {}),
  };
  const result = await ports.inbox.listContacts(input.organizationId, filter, windowOf(input));
  return { ...result, page: input.page, pageSize: input.pageSize };
}
