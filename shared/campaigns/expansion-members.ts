/**
 * The first half of an expansion page (docs/CAMPAIGNS.md "How a campaign runs"): the members read
 * become the page's candidates, one per person. Each member gets the one key of their person (a
 * member known only by a BSUID that the contact book pairs with a number is the number's person);
 * a person met twice in the page, in one of `excludeAudienceIds`, or not matching the filter is
 * counted and dropped. Claims (who was met on an earlier page) come after, in expansion-page.ts.
 */
import type { AudienceMember } from '../audiences/audience';
import type { MemberSource } from '../audiences/ports';
import type { ContactBook } from '../inbox/contact-book';
import { optOutKeyOf } from '../recipients/opt-out-key';
import { memberMatches, type AudienceSpec } from './audience-filter';
import type { ExpansionCounts } from './campaign';

export interface MemberPorts {
  members: Pick<MemberSource, 'membersAmong'>;
  /** BSUID ⇄ number pairs the inbox learnt from Meta's webhooks. */
  contactBook: Pick<ContactBook, 'pairsOf'>;
}

/** A member with the key of their person. */
export interface Candidate {
  member: AudienceMember;
  person: string;
}

/** `membersAmong` takes at most this many keys per call. */
const MEMBERS_AMONG_BATCH = 100;

/**
 * The person of each member: a member keyed by a BSUID (no number known to the audience) whose pair
 * the contact book holds is the person of the paired number's opt-out key.
 *
 * @example
 * await personsOf(ports, 'org_1', [{ personKey: 'IN.1', to: 'IN.1', userId: 'IN.1', … }]); // [{ member, person: '919800000001' }]
 */
export async function personsOf(ports: Pick<MemberPorts, 'contactBook'>, organizationId: string, members: readonly AudienceMember[]): Promise<Candidate[]> {
  const byUserId = members.filter((member) => member.userId !== undefined && member.personKey === member.userId).map((member) => member.userId!);
  const pairs = byUserId.length === 0 ? new Map() : await ports.contactBook.pairsOf(organizationId, byUserId);
  return members.map((member) => {
    const pair = member.userId === undefined ? undefined : pairs.get(member.userId);
    return { member, person: pair && member.personKey === member.userId ? optOutKeyOf(pair.phoneNumber) : member.personKey };
  });
}

/** Which of the keys are members of any of the audiences (batched as the port asks). */
async function membersOfAny(
  ports: Pick<MemberPorts, 'members'>,
  organizationId: string,
  audienceIds: readonly string[],
  keys: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const audienceId of audienceIds) {
    const unknown = keys.filter((key) => !found.has(key));
    for (let start = 0; start < unknown.length; start += MEMBERS_AMONG_BATCH) {
      for (const key of await ports.members.membersAmong(organizationId, audienceId, unknown.slice(start, start + MEMBERS_AMONG_BATCH))) found.add(key);
    }
  }
  return found;
}

/**
 * The page's candidates: one per person, in page order, without the excluded and the filtered out;
 * `counts` gets the members read, the duplicates within the page, the excluded and the filtered out.
 *
 * @example
 * const candidates = await candidatesOf(ports, campaign.organizationId, campaign.audience, page.members, counts);
 */
export async function candidatesOf(
  ports: MemberPorts,
  organizationId: string,
  audience: AudienceSpec,
  members: readonly AudienceMember[],
  counts: ExpansionCounts,
): Promise<Candidate[]> {
  counts.members += members.length;
  const seen = new Set<string>();
  const unique: Candidate[] = [];
  for (const candidate of await personsOf(ports, organizationId, members)) {
    if (seen.has(candidate.person)) counts.duplicates += 1;
    else unique.push(candidate);
    seen.add(candidate.person);
  }
  const excludeAudienceIds = audience.excludeAudienceIds ?? [];
  // A person is excluded under either key an audience may hold them by: their member key or their person's.
  const keys = [...new Set(unique.flatMap(({ member, person }) => [member.personKey, person]))];
  const excluded = excludeAudienceIds.length === 0 ? new Set<string>() : await membersOfAny(ports, organizationId, excludeAudienceIds, keys);
  return unique.filter(({ member, person }) => {
    if (excluded.has(member.personKey) || excluded.has(person)) counts.excluded += 1;
    else if (!memberMatches(audience.filter, member)) counts.filteredOut += 1;
    else return true;
    return false;
  });
}
