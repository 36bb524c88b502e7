/** MembershipStore in memory, as DynamoDbMembershipStore: users created once, memberships replaced, removals audited. */
import type { Membership, MembershipRemoval, User } from '../../../shared/tenancy/tenancy-entities';
import type { MembershipStore } from '../../../shared/tenancy/tenancy-stores';
import { inKeyOrder, stored, type InMemoryTenancyState } from './in-memory-tenancy-state';

export class InMemoryMembershipStore implements MembershipStore {
  constructor(private readonly state: InMemoryTenancyState) {}

  async putUserIfAbsent(user: User): Promise<void> {
    this.state.touch('putUserIfAbsent', user);
    if (!this.state.users.has(user.email)) this.state.users.set(user.email, stored(user));
  }

  async getUser(email: string): Promise<User | undefined> {
    this.state.touch('getUser');
    const user = this.state.users.get(email);
    return user && stored(user);
  }

  async putMembership(membership: Membership): Promise<void> {
    this.state.touch('putMembership', membership);
    this.state.memberships.set(`${membership.organizationId}#${membership.email}`, stored(membership));
  }

  async putMembershipIfAbsent(membership: Membership): Promise<boolean> {
    this.state.touch('putMembershipIfAbsent', membership);
    const key = `${membership.organizationId}#${membership.email}`;
    if (this.state.memberships.has(key)) return false;
    this.state.memberships.set(key, stored(membership));
    return true;
  }

  async getMembership(organizationId: string, email: string): Promise<Membership | undefined> {
    this.state.touch('getMembership');
    const membership = this.state.memberships.get(`${organizationId}#${email}`);
    return membership && stored(membership);
  }

  async listMembershipsOfOrganization(organizationId: string): Promise<Membership[]> {
    this.state.touch('listMembershipsOfOrganization');
    return [...this.state.memberships.values()]
      .filter((membership) => membership.organizationId === organizationId)
      .sort(inKeyOrder((membership) => membership.email))
      .map(stored);
  }

  async listMembershipsOfUser(email: string): Promise<Membership[]> {
    this.state.touch('listMembershipsOfUser');
    return [...this.state.memberships.values()]
      .filter((membership) => membership.email === email)
      .sort(inKeyOrder((membership) => membership.organizationId))
      .map(stored);
  }

  async removeMembership(organizationId: string, email: string, audit: { removedAt: string; removedBy: string }): Promise<MembershipRemoval | undefined> {
    this.state.touch('removeMembership', { organizationId, email, ...audit });
    const membership = this.state.memberships.get(`${organizationId}#${email}`);
    if (!membership) return undefined;
    const removal: MembershipRemoval = { ...membership, ...audit };
    this.state.removals.push(stored(removal));
    this.state.memberships.delete(`${organizationId}#${email}`);
    return removal;
  }

  async listMembershipRemovals(organizationId: string): Promise<MembershipRemoval[]> {
    this.state.touch('listMembershipRemovals');
    return this.state.removals
      .filter((removal) => removal.organizationId === organizationId)
      .sort(inKeyOrder((removal) => `${removal.removedAt}#${removal.email}`))
      .map(stored);
  }
}
