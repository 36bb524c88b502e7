import type { Audience, AudienceMember } from '../../shared/audiences/audience';
import type { AudienceDetail, AudienceStore, MemberPage, MemberUpsert, PageRequest } from '../../shared/audiences/ports';
import { callingCodeOf } from '../../shared/recipients/calling-code';

interface StoredAudience {
  audience: Audience;
  deleted: boolean;
  members: Map<string, AudienceMember>;
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const countryOf = (personKey: string) => callingCodeOf(personKey) ?? 'unknown';

/**
 * Saved audiences in memory with the DynamoDB adapter's semantics (test/support/contracts/
 * audience-store.contract.ts): newest first, members in person-key order, a deleted audience
 * marked until its members are purged, counts by calling code of the person key.
 */
export class InMemoryAudienceStore implements AudienceStore {
  readonly audiences = new Map<string, StoredAudience>();
  memberWrites = 0;

  private stored(organizationId: string, audienceId: string): StoredAudience | undefined {
    return this.audiences.get(`${organizationId}|${audienceId}`);
  }

  async createAudience(audience: Audience): Promise<void> {
    const key = `${audience.organizationId}|${audience.audienceId}`;
    if (this.audiences.has(key)) throw new Error(`Audience ${audience.audienceId} exists`);
    this.audiences.set(key, { audience: { ...audience }, deleted: false, members: new Map() });
  }

  async getAudience(organizationId: string, audienceId: string): Promise<Audience | undefined> {
    const detail = await this.getAudienceDetail(organizationId, audienceId);
    if (!detail) return undefined;
    const { byCountry: _byCountry, ...audience } = detail;
    return audience;
  }

  async getAudienceDetail(organizationId: string, audienceId: string): Promise<AudienceDetail | undefined> {
    const stored = this.stored(organizationId, audienceId);
    if (!stored || stored.deleted) return undefined;
    const byCountry: Record<string, number> = {};
    for (const key of stored.members.keys()) byCountry[countryOf(key)] = (byCountry[countryOf(key)] ?? 0) + 1;
    return { ...stored.audience, memberCount: stored.members.size, byCountry };
  }

  async listAudiences(organizationId: string, page: PageRequest): Promise<{ audiences: Audience[]; nextCursor?: string }> {
    const all = [...this.audiences.values()]
      .filter((stored) => stored.audience.organizationId === organizationId && !stored.deleted)
      .map((stored) => ({ ...stored.audience, memberCount: stored.members.size }))
      .sort((a, b) => byKey(b.audienceId, a.audienceId));
    const start = page.cursor === undefined ? 0 : all.findIndex((audience) => audience.audienceId < page.cursor!);
    const slice = start === -1 ? [] : all.slice(start, start + page.limit);
    const more = start !== -1 && start + page.limit < all.length;
    return more ? { audiences: slice, nextCursor: slice.at(-1)!.audienceId } : { audiences: slice };
  }

  async deleteAudience(organizationId: string, audienceId: string): Promise<boolean> {
    const stored = this.stored(organizationId, audienceId);
    if (!stored || stored.deleted) return false;
    stored.deleted = true;
    return true;
  }

  async purgeDeletedMembers(organizationId: string, audienceId: string, maxMembers: number): Promise<{ removed: number; done: boolean } | undefined> {
    const stored = this.stored(organizationId, audienceId);
    if (!stored || !stored.deleted) return undefined;
    const keys = [...stored.members.keys()].sort(byKey).slice(0, maxMembers);
    for (const key of keys) stored.members.delete(key);
    if (stored.members.size === 0) this.audiences.delete(`${organizationId}|${audienceId}`);
    return { removed: keys.length, done: stored.members.size === 0 };
  }

  async upsertMembers(organizationId: string, audienceId: string, members: readonly MemberUpsert[]): Promise<{ added: number; updated: number }> {
    const stored = this.stored(organizationId, audienceId);
    if (!stored) throw new Error(`No audience ${audienceId}`);
    let added = 0;
    for (const { numberFromPair, ...member } of members) {
      this.memberWrites += 1;
      const before = stored.members.get(member.personKey);
      if (!before) added += 1;
      const number =
        numberFromPair && before && before.countryCode !== '' ? { to: before.to, countryCode: before.countryCode, toPhoneNumber: before.toPhoneNumber } : {};
      stored.members.set(member.personKey, {
        ...before,
        ...member,
        ...number,
        attributes: structuredClone(member.attributes ?? before?.attributes ?? {}),
        tags: [...(member.tags ?? before?.tags ?? [])],
      });
    }
    if (members.length > 0) stored.audience.updatedAt = members[0]!.updatedAt;
    return { added, updated: members.length - added };
  }

  async removeMembers(organizationId: string, audienceId: string, personKeys: readonly string[]): Promise<{ removed: number }> {
    const stored = this.stored(organizationId, audienceId);
    let removed = 0;
    for (const key of new Set(personKeys)) if (stored?.members.delete(key)) removed += 1;
    return { removed };
  }

  async readMembers(organizationId: string, audienceId: string, page: PageRequest): Promise<MemberPage> {
    const stored = this.stored(organizationId, audienceId);
    const keys = [...(stored?.members.keys() ?? [])].sort(byKey).filter((key) => page.cursor === undefined || key > page.cursor);
    const members = keys.slice(0, page.limit).map((key) => structuredClone(stored!.members.get(key)!));
    return keys.length > page.limit ? { members, nextCursor: members.at(-1)!.personKey } : { members };
  }

  async membersAmong(organizationId: string, audienceId: string, personKeys: readonly string[]): Promise<Map<string, AudienceMember>> {
    const stored = this.stored(organizationId, audienceId);
    const found = new Map<string, AudienceMember>();
    for (const key of personKeys) {
      const member = stored?.members.get(key);
      if (member) found.set(key, structuredClone(member));
    }
    return found;
  }
}
