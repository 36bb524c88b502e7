/**
 * The broadcast module's view of tenancy: which senders an organization has, and the
 * decrypted credentials and pace of the business account behind one.
 */
import { BusinessAccountIncompleteError, NoBusinessAccountError, SenderNotOwnedError } from '../broadcast/errors';
import type { Sender, SenderAccount, SenderDirectory } from '../broadcast/ports';
import { DEFAULT_MARKETING_MESSAGES, type BusinessAccount } from '../tenancy/tenancy-entities';
import type { TenancyServices } from '../tenancy/tenancy-services';
import type { AccountDirectory, OrganizationStore } from '../tenancy/tenancy-stores';
import { usMarketingGuardOn } from '../tenancy/us-marketing-guard-setting';

/** What the directory reads of tenancy: the account directory and the decryption of an account's token. */
export type SenderTenancy = Pick<TenancyServices, 'decryptBusinessAccountToken'> & {
  readonly repository: AccountDirectory & Pick<OrganizationStore, 'getOrganization'>;
};

export class TenancySenderDirectory implements SenderDirectory {
  constructor(
    private readonly tenancy: SenderTenancy,
    private readonly defaultMessagesPerSecond: number,
  ) {}

  async listSenders(organizationId: string): Promise<Sender[]> {
    const [accounts, numbers] = await Promise.all([
      this.tenancy.repository.listBusinessAccounts(organizationId),
      this.tenancy.repository.listPhoneNumbers(organizationId),
    ]);
    if (accounts.length === 0) throw new NoBusinessAccountError();
    const connected = new Set(accounts.map((account) => account.wabaId));
    return numbers
      .filter((number) => connected.has(number.wabaId))
      .map((number) => ({ phoneNumber: number.digits, phoneNumberId: number.phoneNumberId, wabaId: number.wabaId }));
  }

  async resolveSender(organizationId: string, phoneNumber: string): Promise<SenderAccount> {
    // The organization's US marketing guard is read alongside (cached with the organization): every template accept needs it.
    const organization = this.tenancy.repository.getOrganization(organizationId);
    organization.catch(() => undefined);
    const number = await this.tenancy.repository.findPhoneNumberByDigits(phoneNumber);
    if (!number || number.organizationId !== organizationId) throw new SenderNotOwnedError(phoneNumber);
    const account = await this.tenancy.repository.getBusinessAccount(organizationId, number.wabaId);
    const missing = [
      ...(account ? [] : ['businessAccount']),
      ...(number.phoneNumberId ? [] : ['phoneNumberId']),
      ...(account && !account.encryptedAccessToken ? ['accessToken'] : []),
      ...(account?.status === 'needs-authorization' ? ['accessToken (needs re-authorization)'] : []),
    ];
    if (!account || missing.length > 0) throw new BusinessAccountIncompleteError(missing);
    return {
      organizationId,
      phoneNumber: number.digits,
      phoneNumberId: number.phoneNumberId,
      wabaId: number.wabaId,
      accessToken: await this.tenancy.decryptBusinessAccountToken(account),
      messagesPerSecond: this.paceOf(account),
      businessId: account.businessId,
      marketingMessages: account.marketingMessages ?? DEFAULT_MARKETING_MESSAGES,
      ...(usMarketingGuardOn(await organization) ? {} : { usMarketingGuard: false }),
    };
  }

  async accountOf(organizationId: string, wabaId: string): Promise<{ accessToken: string; messagesPerSecond: number }> {
    const account = await this.tenancy.repository.getBusinessAccount(organizationId, wabaId);
    if (!account) throw new BusinessAccountIncompleteError(['businessAccount']);
    return { accessToken: await this.tenancy.decryptBusinessAccountToken(account), messagesPerSecond: this.paceOf(account) };
  }

  private paceOf(account: BusinessAccount): number {
    return account.messagesPerSecond ?? this.defaultMessagesPerSecond;
  }
}
