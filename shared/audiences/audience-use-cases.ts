/**
 * Saved audiences: create, list (the `contacts` audience first), read with their counts, delete
 * (docs/CAMPAIGNS.md "Audiences"). Each use case takes its ports; the caller is the authenticated
 * broadcast key's organization, so another organization's audience is never found (404).
 */
import type { ContactBook } from '../inbox/contact-book';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { KeyScope } from '../tenancy/tenancy-entities';
import { CONTACTS_AUDIENCE_ID, type Audience } from './audience';
import { decodeCursor, encodeCursor } from './audience-cursor';
import { AudienceNotFoundError, AudienceOutsideKeyScopeError, ContactsAudienceReadOnlyError } from './errors';
import type { AudienceStore, IdempotentRun, MemberSource, OptOutKeyPages } from './ports';
import { callingCodeOf } from '../recipients/calling-code';

export interface AudienceCaller {
  organizationId: string;
  scope?: KeyScope;
}

export interface AudiencePorts {
  audiences: AudienceStore;
  /** Saved audiences and `contacts` alike (shared/module-bridges/audience-member-source.ts). */
  members: MemberSource;
  optOutKeys: OptOutKeyPages;
  contactBook: Pick<ContactBook, 'pairsOf'>;
  idempotency: IdempotentRun;
  clock: Clock;
  ids: IdGenerator;
}

/** Members a DELETE removes before answering; a larger audience's rest goes with the next DELETE (docs/CAMPAIGNS.md). */
export const PURGE_MEMBERS_PER_REQUEST = 20_000;
/** Reads of the opt-out list and of `contacts` when counting, per page. */
const COUNT_PAGE = 1000;
/** Keys per `membersAmong` call (the port's bound). */
const AMONG_BATCH = 100;

export type AudienceSummary = Pick<Audience, 'audienceId' | 'name' | 'memberCount' | 'createdAt' | 'updatedAt'>;
export type AudienceView = AudienceSummary & { optedOutCount: number; byCountry: Record<string, number> };

const summaryOf = ({ audienceId, name, memberCount, createdAt, updatedAt }: Audience): AudienceSummary => ({
  audienceId,
  name,
  memberCount,
  createdAt,
  updatedAt,
});

/** Keys minted by generate-key send and read their own jobs only (shared/broadcast/key-scope.ts): no audiences. */
export function requireAudienceScope(caller: AudienceCaller): void {
  if (caller.scope?.kind === 'earlier-sender') throw new AudienceOutsideKeyScopeError();
}

/** Throws ContactsAudienceReadOnlyError for `contacts` (changed through /v1/contacts only). */
export function requireWritableAudience(audienceId: string, action: string): void {
  if (audienceId === CONTACTS_AUDIENCE_ID) throw new ContactsAudienceReadOnlyError(action);
}

/**
 * A new, empty audience.
 *
 * @example
 * await createAudience(ports, caller, { name: 'VIP customers' }); // { audienceId: 'aud_01J…', name: 'VIP customers', memberCount: 0, createdAt }
 */
export async function createAudience(ports: Pick<AudiencePorts, 'audiences' | 'clock' | 'ids'>, caller: AudienceCaller, request: { name: string }) {
  requireAudienceScope(caller);
  const now = ports.clock.now().toISOString();
  const audience: Audience = {
    audienceId: ports.ids.newId('aud'),
    organizationId: caller.organizationId,
    name: request.name,
    memberCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  await ports.audiences.createAudience(audience);
  return { audienceId: audience.audienceId, name: audience.name, memberCount: 0, createdAt: now };
}

/**
 * A page of the organization's audiences, newest first after `contacts`, which heads the first page.
 *
 * @example
 * await listAudiences(ports, caller, { limit: 50 }); // { audiences: [{ audienceId: 'contacts', … }, …], nextCursor: null }
 */
export async function listAudiences(ports: Pick<AudiencePorts, 'audiences' | 'members'>, caller: AudienceCaller, query: { limit: number; cursor?: string }) {
  requireAudienceScope(caller);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, '*');
  const head: AudienceSummary[] = [];
  if (after === undefined) head.push(summaryOf((await ports.members.describeAudience(caller.organizationId, CONTACTS_AUDIENCE_ID))!));
  const wanted = query.limit - head.length;
  if (wanted === 0) {
    // A page of `contacts` alone: a cursor only when a saved audience follows (no empty last page).
    const next = await ports.audiences.listAudiences(caller.organizationId, { limit: 1 });
    return { audiences: head, nextCursor: next.audiences.length > 0 ? encodeCursor('*', null) : null };
  }
  const page = await ports.audiences.listAudiences(caller.organizationId, { limit: wanted, ...(after ? { cursor: after } : {}) });
  const audiences = [...head, ...page.audiences.map(summaryOf)];
  return { audiences, nextCursor: page.nextCursor === undefined ? null : encodeCursor('*', page.nextCursor) };
}

/** An audience of the organization, or AudienceNotFoundError. */
export async function requireAudience(ports: Pick<AudiencePorts, 'members'>, caller: AudienceCaller, audienceId: string): Promise<Audience> {
  const audience = await ports.members.describeAudience(caller.organizationId, audienceId);
  if (!audience) throw new AudienceNotFoundError(audienceId);
  return audience;
}

/**
 * One audience with its counts: members by calling code (kept with the count for saved audiences,
 * counted from the contacts for `contacts`) and how many members are on the organization's opt-out
 * list (the list read page by page and looked up in the audience: cost proportional to the list).
 */
export async function getAudience(
  ports: Pick<AudiencePorts, 'audiences' | 'members' | 'optOutKeys'>,
  caller: AudienceCaller,
  audienceId: string,
): Promise<AudienceView> {
  requireAudienceScope(caller);
  const { organizationId } = caller;
  const detail = audienceId === CONTACTS_AUDIENCE_ID ? undefined : await ports.audiences.getAudienceDetail(organizationId, audienceId);
  const audience = detail ?? (audienceId === CONTACTS_AUDIENCE_ID ? await requireAudience(ports, caller, audienceId) : undefined);
  if (!audience) throw new AudienceNotFoundError(audienceId);
  const [byCountry, optedOutCount] = await Promise.all([
    detail?.byCountry ?? contactsByCountry(ports.members, organizationId),
    optedOutAmong(ports, organizationId, audienceId),
  ]);
  return { ...summaryOf(audience), optedOutCount, byCountry };
}

async function contactsByCountry(members: MemberSource, organizationId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let cursor: string | undefined;
  do {
    const page = await members.readMembers(organizationId, CONTACTS_AUDIENCE_ID, { limit: COUNT_PAGE, cursor });
    for (const member of page.members) {
      const code = callingCodeOf(member.personKey) ?? 'unknown';
      counts[code] = (counts[code] ?? 0) + 1;
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return counts;
}

async function optedOutAmong(ports: Pick<AudiencePorts, 'members' | 'optOutKeys'>, organizationId: string, audienceId: string): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await ports.optOutKeys.optedOutKeys(organizationId, { limit: COUNT_PAGE, cursor });
    for (let start = 0; start < page.keys.length; start += AMONG_BATCH) {
      count += (await ports.members.membersAmong(organizationId, audienceId, page.keys.slice(start, start + AMONG_BATCH))).size;
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return count;
}

/**
 * Deletes an audience: marked deleted at once (no longer listed, read, written or usable by a
 * campaign), then up to PURGE_MEMBERS_PER_REQUEST of its members removed before the answer. A
 * DELETE of an audience whose members are still being removed continues the removal (200);
 * once none is left the id is unknown (404).
 */
export async function deleteAudience(ports: Pick<AudiencePorts, 'audiences'>, caller: AudienceCaller, audienceId: string) {
  requireAudienceScope(caller);
  requireWritableAudience(audienceId, 'deleted');
  await ports.audiences.deleteAudience(caller.organizationId, audienceId);
  const purge = await ports.audiences.purgeDeletedMembers(caller.organizationId, audienceId, PURGE_MEMBERS_PER_REQUEST);
  if (!purge) throw new AudienceNotFoundError(audienceId);
  return { audienceId, deleted: true as const, membersRemaining: !purge.done };
}
