/**
 * What every MembershipStore does, as observed through the port: run once against the in-memory fake
 * (test/unit/contracts) and once against the DynamoDB adapter on dynalite (test/integration/contracts),
 * so the fake the unit tests rely on cannot drift from the adapter. Where they disagree, the adapter
 * is the truth.
 */
import type { MembershipStore } from '../../../shared/tenancy/tenancy-stores';
import { at, fresh, later } from './tenancy-contract-fixtures';

export function describeMembershipStoreContract(name: string, makeRepository: () => MembershipStore | Promise<MembershipStore>): void {
  describe(`MembershipStore contract: ${name}`, () => {
    let repository: MembershipStore;
    beforeAll(async () => {
      repository = await makeRepository();
    });

    describe('users and memberships', () => {
      it('creates a user only once', async () => {
        const email = `${fresh('user')}@example.com`;
        await repository.putUserIfAbsent({ email, createdAt: at });
        await repository.putUserIfAbsent({ email, createdAt: later });
        expect(await repository.getUser(email)).toEqual({ email, createdAt: at });
        expect(await repository.getUser(`${fresh('user')}@example.com`)).toBeUndefined();
      });

      it('puts (role changes replace), reads, lists by organization in e-mail order and by user in organization order', async () => {
        const [orgA, orgB] = [fresh('org_a'), fresh('org_b')];
        const [ann, bob] = [`ann-${fresh('u')}@example.com`, `bob-${fresh('u')}@example.com`];
        await repository.putMembership({ organizationId: orgA, email: bob, role: 'member', joinedAt: at });
        await repository.putMembership({ organizationId: orgA, email: ann, role: 'member', joinedAt: at });
        await repository.putMembership({ organizationId: orgA, email: ann, role: 'admin', joinedAt: at });
        await repository.putMembership({ organizationId: orgB, email: bob, role: 'admin', joinedAt: later });
        expect(await repository.getMembership(orgA, ann)).toEqual({ organizationId: orgA, email: ann, role: 'admin', joinedAt: at });
        expect(await repository.getMembership(orgB, ann)).toBeUndefined();
        expect((await repository.listMembershipsOfOrganization(orgA)).map((membership) => [membership.email, membership.role])).toEqual([
          [ann, 'admin'],
          [bob, 'member'],
        ]);
        expect((await repository.listMembershipsOfUser(bob)).map((membership) => membership.organizationId)).toEqual([orgA, orgB]);
      });

      it("keeps a person's console role and usage-plan key (docs/PEOPLE.md), and a role change replaces them", async () => {
        const organizationId = fresh('org_');
        const email = `ana-${fresh('u')}@example.com`;
        const usagePlanKey = { id: 'gw_key_1', value: 'wbp_person_0123456789abcdefghij' };
        await repository.putMembership({ organizationId, email, role: 'member', joinedAt: at, consoleRole: 'campaign-manager', usagePlanKey });
        const stored = { organizationId, email, role: 'member', joinedAt: at, consoleRole: 'campaign-manager', usagePlanKey };
        expect(await repository.getMembership(organizationId, email)).toEqual(stored);
        expect(await repository.listMembershipsOfOrganization(organizationId)).toEqual([stored]);
        expect((await repository.listMembershipsOfUser(email)).find((membership) => membership.organizationId === organizationId)).toEqual(stored);
        await repository.putMembership({ ...stored, role: 'admin', consoleRole: 'admin' });
        expect(await repository.getMembership(organizationId, email)).toEqual({ ...stored, role: 'admin', consoleRole: 'admin' });
      });

      it('creates a membership only if the organization has none for the e-mail (a second invitation changes nothing)', async () => {
        const organizationId = fresh('org_');
        const email = `bob-${fresh('u')}@example.com`;
        const first = { organizationId, email, role: 'member' as const, joinedAt: at, consoleRole: 'viewer' as const };
        expect(await repository.putMembershipIfAbsent(first)).toBe(true);
        expect(await repository.putMembershipIfAbsent({ ...first, role: 'admin', consoleRole: 'admin', joinedAt: later })).toBe(false);
        expect(await repository.getMembership(organizationId, email)).toEqual(first);
        expect((await repository.listMembershipsOfUser(email)).map((membership) => membership.organizationId)).toEqual([organizationId]);
      });

      it('removes with an audit record; removing a non-member writes nothing', async () => {
        const organizationId = fresh('org_');
        const [ann, bob] = [`ann-${fresh('u')}@example.com`, `bob-${fresh('u')}@example.com`];
        await repository.putMembership({ organizationId, email: bob, role: 'member', joinedAt: at });
        await repository.putMembership({ organizationId, email: ann, role: 'admin', joinedAt: at });
        expect(await repository.removeMembership(organizationId, bob, { removedAt: later, removedBy: 'cred_x' })).toEqual({
          organizationId,
          email: bob,
          role: 'member',
          joinedAt: at,
          removedAt: later,
          removedBy: 'cred_x',
        });
        expect(await repository.removeMembership(organizationId, bob, { removedAt: later, removedBy: 'cred_x' })).toBeUndefined();
        expect(await repository.getMembership(organizationId, bob)).toBeUndefined();
        await repository.removeMembership(organizationId, ann, { removedAt: at, removedBy: 'cred_y' });
        // Oldest removal first.
        expect((await repository.listMembershipRemovals(organizationId)).map((removal) => [removal.email, removal.removedBy])).toEqual([
          [ann, 'cred_y'],
          [bob, 'cred_x'],
        ]);
        expect(await repository.listMembershipsOfOrganization(organizationId)).toEqual([]);
      });
    });
  });
}
