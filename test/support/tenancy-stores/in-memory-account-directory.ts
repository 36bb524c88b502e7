/** AccountDirectory in memory, as DynamoDbAccountDirectory: claims owned by one organization, accounts and numbers per organization, global look-ups through the claims. */
import { BusinessAccountNotFoundError, IdentifierClaimedByAnotherOrganizationError, type ClaimedIdentifierKind } from '../../../shared/tenancy/errors';
import type { BusinessAccount, MarketingMessagesSetting, PhoneNumber } from '../../../shared/tenancy/tenancy-entities';
import type { AccountDirectory, IdentifierClaim } from '../../../shared/tenancy/tenancy-stores';
import { inKeyOrder, stored, type InMemoryTenancyState } from './in-memory-tenancy-state';

export class InMemoryAccountDirectory implements AccountDirectory {
  constructor(private readonly state: InMemoryTenancyState) {}

  async claimIdentifier(claim: IdentifierClaim): Promise<{ newlyClaimed: boolean }> {
    this.state.touch('claimIdentifier', claim);
    const key = `${claim.kind}#${claim.value}`;
    const existing = this.state.claims.get(key);
    if (existing && existing.organizationId !== claim.organizationId) throw new IdentifierClaimedByAnotherOrganizationError(claim.kind, claim.value);
    this.state.claims.set(key, stored(claim));
    return { newlyClaimed: existing === undefined };
  }

  async releaseIdentifier(kind: ClaimedIdentifierKind, value: string, organizationId: string): Promise<void> {
    this.state.touch('releaseIdentifier');
    const key = `${kind}#${value}`;
    if (this.state.claims.get(key)?.organizationId === organizationId) this.state.claims.delete(key);
  }

  async getIdentifierClaim(kind: ClaimedIdentifierKind, value: string): Promise<IdentifierClaim | undefined> {
    this.state.touch('getIdentifierClaim');
    const claim = this.state.claims.get(`${kind}#${value}`);
    return claim && stored(claim);
  }

  async putBusinessAccount(account: BusinessAccount): Promise<void> {
    this.state.touch('putBusinessAccount', account);
    this.state.businessAccounts.set(`${account.organizationId}#${account.wabaId}`, stored(account));
  }

  async getBusinessAccount(organizationId: string, wabaId: string): Promise<BusinessAccount | undefined> {
    this.state.touch('getBusinessAccount');
    const account = this.state.businessAccounts.get(`${organizationId}#${wabaId}`);
    return account && stored(account);
  }

  async listBusinessAccounts(organizationId: string): Promise<BusinessAccount[]> {
    this.state.touch('listBusinessAccounts');
    return [...this.state.businessAccounts.values()]
      .filter((account) => account.organizationId === organizationId)
      .sort(inKeyOrder((account) => account.wabaId))
      .map(stored);
  }

  async markBusinessAccountNeedsAuthorization(organizationId: string, wabaId: string, failedEncryptedAccessToken: string, at: string): Promise<void> {
    this.state.touch('markBusinessAccountNeedsAuthorization', { organizationId, wabaId, at });
    const account = this.state.businessAccounts.get(`${organizationId}#${wabaId}`);
    if (account?.encryptedAccessToken === failedEncryptedAccessToken) Object.assign(account, { status: 'needs-authorization', updatedAt: at });
  }

  async setBusinessAccountMarketingMessages(
    organizationId: string,
    wabaId: string,
    change: { marketingMessages: MarketingMessagesSetting; updatedAt: string },
  ): Promise<BusinessAccount> {
    this.state.touch('setBusinessAccountMarketingMessages', { organizationId, wabaId, ...change });
    const account = this.state.businessAccounts.get(`${organizationId}#${wabaId}`);
    if (!account) throw new BusinessAccountNotFoundError(organizationId, wabaId);
    Object.assign(account, change);
    return stored(account);
  }

  async putPhoneNumber(phoneNumber: PhoneNumber): Promise<void> {
    this.state.touch('putPhoneNumber', phoneNumber);
    this.state.phoneNumbers.set(`${phoneNumber.organizationId}#${phoneNumber.digits}`, stored(phoneNumber));
  }

  async listPhoneNumbers(organizationId: string): Promise<PhoneNumber[]> {
    this.state.touch('listPhoneNumbers');
    return [...this.state.phoneNumbers.values()]
      .filter((phone) => phone.organizationId === organizationId)
      .sort(inKeyOrder((phone) => phone.digits))
      .map(stored);
  }

  async findPhoneNumberByDigits(digits: string): Promise<PhoneNumber | undefined> {
    this.state.touch('findPhoneNumberByDigits');
    const phone = this.state.claims.get(`phone-number-digits#${digits}`)?.phoneNumber;
    return phone && stored(phone);
  }

  async findPhoneNumberById(phoneNumberId: string): Promise<PhoneNumber | undefined> {
    this.state.touch('findPhoneNumberById');
    const phone = this.state.claims.get(`phone-number-id#${phoneNumberId}`)?.phoneNumber;
    return phone && stored(phone);
  }
}
