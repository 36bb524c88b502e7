/**
 * What every AccountDirectory does, as observed through the port: run once against the in-memory fake
 * (test/unit/contracts) and once against the DynamoDB adapter on dynalite (test/integration/contracts),
 * so the fake the unit tests rely on cannot drift from the adapter. Where they disagree, the adapter
 * is the truth.
 */
import { BusinessAccountNotFoundError, IdentifierClaimedByAnotherOrganizationError } from '../../../shared/tenancy/errors';
import type { PhoneNumber } from '../../../shared/tenancy/tenancy-entities';
import type { AccountDirectory } from '../../../shared/tenancy/tenancy-stores';
import { at, fresh, freshDigits, later } from './tenancy-contract-fixtures';

export function describeAccountDirectoryContract(name: string, makeRepository: () => AccountDirectory | Promise<AccountDirectory>): void {
  describe(`AccountDirectory contract: ${name}`, () => {
    let repository: AccountDirectory;
    beforeAll(async () => {
      repository = await makeRepository();
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
        await repository.claimIdentifier({
          kind: 'phone-number-digits',
          value: phone.digits,
          organizationId: phone.organizationId,
          phoneNumber: phone,
          claimedAt: at,
        });
        await repository.claimIdentifier({
          kind: 'phone-number-id',
          value: phone.phoneNumberId,
          organizationId: phone.organizationId,
          phoneNumber: phone,
          claimedAt: at,
        });
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

      it('sets the Marketing Messages API setting alone, keeping what another write changed; an absent account is not found', async () => {
        const organizationId = fresh('org_');
        const account = {
          organizationId,
          wabaId: 'waba1',
          businessId: 'biz',
          name: 'A',
          encryptedAccessToken: 'cipher-1',
          status: 'active' as const,
          connectedAt: at,
          updatedAt: at,
        };
        await repository.putBusinessAccount(account);
        await repository.markBusinessAccountNeedsAuthorization(organizationId, 'waba1', 'cipher-1', at);
        const updated = await repository.setBusinessAccountMarketingMessages(organizationId, 'waba1', { marketingMessages: 'enabled', updatedAt: later });
        const expected = { ...account, status: 'needs-authorization', marketingMessages: 'enabled', updatedAt: later };
        expect(updated).toEqual(expected);
        expect(await repository.getBusinessAccount(organizationId, 'waba1')).toEqual(expected);
        await repository.setBusinessAccountMarketingMessages(organizationId, 'waba1', { marketingMessages: 'auto', updatedAt: later });
        expect(await repository.getBusinessAccount(organizationId, 'waba1')).toMatchObject({ marketingMessages: 'auto' });
        await expect(
          repository.setBusinessAccountMarketingMessages(organizationId, 'waba-missing', { marketingMessages: 'enabled', updatedAt: later }),
        ).rejects.toBeInstanceOf(BusinessAccountNotFoundError);
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
  });
}
