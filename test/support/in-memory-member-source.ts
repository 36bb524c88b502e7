import type { Audience, AudienceMember } from '../../shared/audiences/audience';
import type { MemberPage, MemberSource, PageRequest } from '../../shared/audiences/ports';

/** Audiences in memory for campaign tests: members in person-key order, pages by offset. */
export class InMemoryMemberSource implements MemberSource {
  readonly audiences = new Map<string, { audience: Audience; members: AudienceMember[] }>();
  pagesRead = 0;

  /** Adds an audience with its members (sorted by person key, one per key: the last wins). */
  seed(audience: Audience, members: readonly AudienceMember[]): void {
    const byKey = new Map(members.map((member) => [member.personKey, member]));
    const sorted = [...byKey.values()].sort((a, b) => (a.personKey < b.personKey ? -1 : a.personKey > b.personKey ? 1 : 0));
    this.audiences.set(`${audience.organizationId}|${audience.audienceId}`, { audience: { ...audience, memberCount: sorted.length }, members: sorted });
  }

  async describeAudience(organizationId: string, audienceId: string): Promise<Audience | undefined> {
    return this.audiences.get(`${organizationId}|${audienceId}`)?.audience;
  }

  async readMembers(organizationId: string, audienceId: string, page: PageRequest): Promise<MemberPage> {
    this.pagesRead += 1;
    const members = this.audiences.get(`${organizationId}|${audienceId}`)?.members ?? [];
    const start = page.cursor === undefined ? 0 : Number(page.cursor);
    const slice = members.slice(start, start + page.limit).map((member) => structuredClone(member));
    return start + page.limit < members.length ? { members: slice, nextCursor: String(start + page.limit) } : { members: slice };
  }

  async membersAmong(organizationId: string, audienceId: string, personKeys: readonly string[]): Promise<Set<string>> {
    const members = this.audiences.get(`${organizationId}|${audienceId}`)?.members ?? [];
    const keys = new Set(members.map((member) => member.personKey));
    return new Set(personKeys.filter((key) => keys.has(key)));
  }
}
