/**
 * What every TenancyRepository does, as observed through the port: run once against the in-memory
 * fake (test/unit/contracts) and once against the DynamoDB adapter on dynalite
 * (test/integration/contracts), so the fake the unit tests rely on cannot drift from the adapter.
 * Where they disagree, the adapter is the truth.
 *
 * The repository is shared by the tests of one run (a dynalite table is not cheap to make), so
 * every test works on its own fresh ids.
 */
import {
  CredentialNotFoundError,
  IdentifierClaimedByAnotherOrganizationError,
  InsufficientBalanceError,
  OrganizationAlreadyExistsError,
  OrganizationNotFoundError,
} from '../../../shared/tenancy/errors';
import type { Credential, Organization, PhoneNumber } from '../../../shared/tenancy/tenancy-entities';
import type { TenancyRepository } from '../../../shared/tenancy/tenancy-repository';

const at = '2026-05-04T08:00:00.000Z';
const later = '2026-05-04T09:00:00.000Z';
let sequence = 0;
/** An id no other test of this run uses. */
const fresh = (prefix: string) => `${prefix}${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}`;
const freshDigits = () => `1555${String(process.pid % 1000).padStart(3, '0')}${String((sequence += 1) % 100_000).padStart(5, '0')}`;

const organization = (organizationId = fresh('org_')): Organization => ({
  organizationId,
  name: 'Contract Org',
  plan: 'professional',
  apiAddOn: false,
  status: 'active',
  createdAt: at,
  updatedAt: at,
});

const credential = (organizationId: string, overrides: Partial<Credential> = {}): Credential => ({
  credentialId: fresh('cred_'),
  kind: 'broadcast-api-key',
  secretHash: fresh('hash'),
  organizationId,
  createdAt: at,
  ...overrides,
});

export function describeTenancyRepositoryContract(name: string, makeRepository: () => TenancyRepository | Promise<TenancyRepository>): void {
  describe(`TenancyRepository contract: ${name}`, () => {
    let repository: TenancyRepository;
    beforeAll(async () => {
      repository = await makeRepository();
    });

    describe('organizations', () => {
      it('creates once, reads back, refuses a second create of the same id', async () => {
        const org = organization();
        await repository.createOrganization(org);
        expect(await repository.getOrganization(org.organizationId)).toEqual(org);
        await expect(repository.createOrganization({ ...org, name: 'Again' })).rejects.toBeInstanceOf(OrganizationAlreadyExistsError);
        expect(await repository.getOrganization(org.organizationId)).toEqual(org);
        expect(await repository.getOrganization(fresh('org_'))).toBeUndefined();
      });

      it('changes the plan and returns the organization as stored; an unknown one is OrganizationNotFoundError', async () => {
        const org = organization();
        await repository.createOrganization(org);
        const changed = await repository.updateOrganizationPlan(org.organizationId, { plan: 'enterprise', apiAddOn: true, updatedAt: later });
        expect(changed).toEqual({ ...org, plan: 'enterprise', apiAddOn: true, updatedAt: later });
        expect(await repository.getOrganization(org.organizationId)).toEqual(changed);
        await expect(repository.updateOrganizationPlan(fresh('org_'), { plan: 'starter', apiAddOn: false, updatedAt: later })).rejects.toBeInstanceOf(
          OrganizationNotFoundError,
        );
      });
    });

    describe('identifier claims', () => {
      it('first claim is new, the owner refreshes it, another organization is refused', async () => {
        const value = fresh('waba');
        const claim = { kind: 'waba-id' as const, value, organizationId: 'org_a', claimedAt: at };
        expect(await repository.claimIdentifier(claim)).toEqual({ newlyClaimed: true });
        expect(await repository.claimIdentifier({ ...claim, claimedAt: later })).toEqual({ newlyClaimed: false });
        expect(await repository.getIdentifierClaim('waba-id', value)).toEqual({ ...claim, claimedAt: later });
        await expect(repository.claimIdentifier({ ...claim, organizationId: 'org_b' })).rejects.toBeInstanceOf(IdentifierClaimedByAnotherOrganizationError);
        // Kinds are separate name spaces.
        expect(await repository.claimIdentifier({ ...claim, kind: 'phone-number-id', organizationId: 'org_b' })).toEqual({ newlyClaimed: true });
      });

      it('releases only for the organization holding the claim', async () => {
        const value = fresh('waba');
        await repository.claimIdentifier({ kind: 'waba-id', value, organizationId: 'org_a', claimedAt: at });
        await repository.releaseIdentifier('waba-id', value, 'org_b');
        expect(await repository.getIdentifierClaim('waba-id', value)).toMatchObject({ organizationId: 'org_a' });
        await repository.releaseIdentifier('waba-id', value, 'org_a');
        expect(await repository.getIdentifierClaim('waba-id', value)).toBeUndefined();
        await expect(repository.releaseIdentifier('waba-id', value, 'org_a')).resolves.toBeUndefined();
      });

      it('finds a phone number globally through its digits and id claims', async () => {
        const phone: PhoneNumber = { organizationId: fresh('org_'), wabaId: fresh('waba'), digits: freshDigits(), phoneNumberId: fresh('pn'), addedAt: at };
        await repository.claimIdentifier({ kind: 'phone-number-digits', value: phone.digits, organizationId: phone.organizationId, phoneNumber: phone, claimedAt: at });
        await repository.claimIdentifier({ kind: 'phone-number-id', value: phone.phoneNumberId, organizationId: phone.organizationId, phoneNumber: phone, claimedAt: at });
        expect(await repository.findPhoneNumberByDigits(phone.digits)).toEqual(phone);
        expect(await repository.findPhoneNumberById(phone.phoneNumberId)).toEqual(phone);
        expect(await repository.findPhoneNumberByDigits(freshDigits())).toBeUndefined();
        expect(await repository.findPhoneNumberById(fresh('pn'))).toBeUndefined();
      });
    });

    describe('business accounts and phone numbers', () => {
      it('puts (replacing), reads and lists per organization in WABA id order', async () => {
        const organizationId = fresh('org_');
        const account = (wabaId: string) => ({
          organizationId,
          wabaId,
          businessId: 'biz',
          name: `Account ${wabaId}`,
          encryptedAccessToken: 'cipher-1',
          status: 'active' as const,
          connectedAt: at,
          updatedAt: at,
        });
        await repository.putBusinessAccount(account('waba2'));
        await repository.putBusinessAccount(account('waba1'));
        await repository.putBusinessAccount({ ...account('waba2'), name: 'Renamed', messagesPerSecond: 20 });
        expect(await repository.getBusinessAccount(organizationId, 'waba2')).toEqual({ ...account('waba2'), name: 'Renamed', messagesPerSecond: 20 });
        expect((await repository.listBusinessAccounts(organizationId)).map((listed) => listed.wabaId)).toEqual(['waba1', 'waba2']);
        expect(await repository.getBusinessAccount(fresh('org_'), 'waba1')).toBeUndefined();
        expect(await repository.listBusinessAccounts(fresh('org_'))).toEqual([]);
      });

      it('marks needs-authorization only while the failed ciphertext is still stored', async () => {
        const organizationId = fresh('org_');
        const account = {
          organizationId,
          wabaId: 'waba1',
          businessId: 'biz',
          name: 'A',
          encryptedAccessToken: 'cipher-new',
          status: 'active' as const,
          connectedAt: at,
          updatedAt: at,
        };
        await repository.putBusinessAccount(account);
        await repository.markBusinessAccountNeedsAuthorization(organizationId, 'waba1', 'cipher-old', later);
        expect(await repository.getBusinessAccount(organizationId, 'waba1')).toEqual(account);
        await repository.markBusinessAccountNeedsAuthorization(organizationId, 'waba1', 'cipher-new', later);
        expect(await repository.getBusinessAccount(organizationId, 'waba1')).toEqual({ ...account, status: 'needs-authorization', updatedAt: later });
        // An account that is not there stays not there.
        await repository.markBusinessAccountNeedsAuthorization(organizationId, 'waba-missing', 'cipher-new', later);
        expect(await repository.getBusinessAccount(organizationId, 'waba-missing')).toBeUndefined();
      });

      it('lists an organization’s phone numbers in digit order, one record per digits', async () => {
        const organizationId = fresh('org_');
        const phone = (digits: string, phoneNumberId: string): PhoneNumber => ({ organizationId, wabaId: 'waba1', digits, phoneNumberId, addedAt: at });
        await repository.putPhoneNumber(phone('15550000002', 'pn2'));
        await repository.putPhoneNumber(phone('15550000001', 'pn1'));
        await repository.putPhoneNumber(phone('15550000002', 'pn2b'));
        expect(await repository.listPhoneNumbers(organizationId)).toEqual([phone('15550000001', 'pn1'), phone('15550000002', 'pn2b')]);
        expect(await repository.listPhoneNumbers(fresh('org_'))).toEqual([]);
      });
    });

    describe('credentials', () => {
      it('stores by hash, refuses a second credential with the same hash, lists by credential id', async () => {
        const organizationId = fresh('org_');
        const second = credential(organizationId, { credentialId: 'cred_b', kind: 'organization-token' });
        const first = credential(organizationId, { credentialId: 'cred_a', boundPhoneNumber: '15550000001', expiresAt: later });
        await repository.putCredential(second);
        await repository.putCredential(first);
        expect(await repository.getCredentialByHash(first.secretHash)).toEqual(first);
        await expect(repository.putCredential({ ...first, credentialId: 'cred_c' })).rejects.toThrow();
        expect(await repository.getCredentialByHash(first.secretHash)).toEqual(first);
        expect(await repository.listCredentials(organizationId)).toEqual([first, second]);
        expect(await repository.findCredentialById(organizationId, 'cred_b')).toEqual(second);
        expect(await repository.findCredentialById(fresh('org_'), 'cred_b')).toBeUndefined();
        expect(await repository.getCredentialByHash(fresh('hash'))).toBeUndefined();
      });

      it('revokes once (the first time stays), only within the owning organization', async () => {
        const organizationId = fresh('org_');
        const issued = credential(organizationId);
        await repository.putCredential(issued);
        await expect(repository.revokeCredential(issued.secretHash, fresh('org_'), at)).rejects.toBeInstanceOf(CredentialNotFoundError);
        expect(await repository.revokeCredential(issued.secretHash, organizationId, at)).toEqual({ ...issued, revokedAt: at });
        expect(await repository.revokeCredential(issued.secretHash, organizationId, later)).toEqual({ ...issued, revokedAt: at });
        expect(await repository.getCredentialByHash(issued.secretHash)).toEqual({ ...issued, revokedAt: at });
        await expect(repository.revokeCredential(fresh('hash'), organizationId, at)).rejects.toBeInstanceOf(CredentialNotFoundError);
      });
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

    describe('wallet', () => {
      it('credit creates the wallet at zero first; debit never overdraws', async () => {
        const organizationId = fresh('org_');
        expect(await repository.getWallet(organizationId)).toBeUndefined();
        await expect(repository.debitWallet(organizationId, 1, at)).rejects.toBeInstanceOf(InsufficientBalanceError);
        expect(await repository.creditWallet(organizationId, 5_000, at)).toEqual({ organizationId, balanceMicros: 5_000, currency: 'USD', updatedAt: at });
        expect(await repository.creditWallet(organizationId, 1_000, later)).toEqual({ organizationId, balanceMicros: 6_000, currency: 'USD', updatedAt: later });
        expect(await repository.debitWallet(organizationId, 6_000, later)).toEqual({ organizationId, balanceMicros: 0, currency: 'USD', updatedAt: later });
        await expect(repository.debitWallet(organizationId, 1, later)).rejects.toBeInstanceOf(InsufficientBalanceError);
        expect(await repository.getWallet(organizationId)).toEqual({ organizationId, balanceMicros: 0, currency: 'USD', updatedAt: later });
      });

      it('concurrent debits take exactly what the balance covers', async () => {
        const organizationId = fresh('org_');
        await repository.creditWallet(organizationId, 3_000, at);
        const results = await Promise.allSettled(Array.from({ length: 5 }, () => repository.debitWallet(organizationId, 1_000, later)));
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
        for (const result of results.filter((each) => each.status === 'rejected')) {
          expect((result as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
        }
        expect((await repository.getWallet(organizationId))?.balanceMicros).toBe(0);
      });
    });

    describe('pricing and subscriptions', () => {
      it('puts (replacing) and reads country pricing; the list holds every country in calling-code order', async () => {
        const [low, high] = [`8${String(sequence += 1).padStart(5, '0')}`, `9${String(sequence += 1).padStart(5, '0')}`];
        const pricing = (countryCallingCode: string, marketing: number) => ({
          countryCallingCode,
          pricesMicros: { MARKETING: marketing, UTILITY: 2, AUTHENTICATION: 3 },
          currency: 'USD' as const,
          updatedAt: at,
        });
        await repository.putCountryPricing(pricing(high, 1));
        await repository.putCountryPricing(pricing(low, 1));
        await repository.putCountryPricing(pricing(high, 7));
        expect(await repository.getCountryPricing(high)).toEqual(pricing(high, 7));
        expect(await repository.getCountryPricing('0')).toBeUndefined();
        const codes = (await repository.listCountryPricing()).map((entry) => entry.countryCallingCode);
        expect(codes.filter((code) => code === low || code === high)).toEqual([low, high]);
        expect(codes).toEqual([...codes].sort());
      });

      it('puts (replacing) and reads the subscription', async () => {
        const organizationId = fresh('org_');
        const subscription = { organizationId, status: 'active' as const, plan: 'starter' as const, currentPeriodEnd: later, updatedAt: at };
        expect(await repository.getSubscription(organizationId)).toBeUndefined();
        await repository.putSubscription(subscription);
        await repository.putSubscription({ ...subscription, status: 'inactive' });
        expect(await repository.getSubscription(organizationId)).toEqual({ ...subscription, status: 'inactive' });
      });
    });
  });
}
