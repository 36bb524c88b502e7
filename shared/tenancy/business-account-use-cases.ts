import type { EncryptionContext, TokenCipher } from '../crypto/token-cipher';
import type { Clock } from '../ports/clock';
import { BusinessAccountNeedsAuthorizationError, BusinessAccountNotConnectedError, BusinessAccountNotFoundError } from './errors';
import type { DecryptedTokenCache } from './decrypted-token-cache';
import { requireOrganization, summarizeBusinessAccount, type BusinessAccountSummary } from './organization-use-cases';
import { marketingMessagesSettings, type BusinessAccount, type MarketingMessagesSetting, type PhoneNumber } from './tenancy-entities';
import { optionalSendingRate, requireIdentifier, requireOneOf, requirePhoneDigits, requireText } from './tenancy-input';
import type { AccountDirectory, OrganizationStore } from './tenancy-stores';

/** The context every upstream token ciphertext is bound to: its purpose (the functions' KMS grants name it) and owner. */
export const upstreamTokenContext = (organizationId: string, wabaId: string): EncryptionContext => ({ purpose: 'upstream-token', organizationId, wabaId });

export interface ConnectBusinessAccountInput {
  organizationId: string;
  wabaId: string;
  businessId: string;
  name: string;
  /** The upstream (Cloud API) access token; encrypted before it reaches the repository. */
  accessToken: string;
  /** Sending pace of the account; kept from the previous connection when not given. */
  messagesPerSecond?: number;
}

/**
 * Connects a business account, or connects it again with a new token (which also clears
 * `needs-authorization`). The WABA id is claimed globally first so two organizations cannot
 * connect the same account; a claim made by this call is released if the rest fails.
 */
export async function connectBusinessAccount(
  ports: { tenancy: OrganizationStore & AccountDirectory; clock: Clock; cipher: TokenCipher },
  input: ConnectBusinessAccountInput,
): Promise<BusinessAccountSummary> {
  const wabaId = requireIdentifier(input.wabaId, 'wabaId');
  const businessId = requireIdentifier(input.businessId, 'businessId');
  const name = requireText(input.name, 'name');
  const accessToken = requireText(input.accessToken, 'accessToken', 4096);
  const messagesPerSecond = optionalSendingRate(input.messagesPerSecond, 'messagesPerSecond');
  await requireOrganization(ports.tenancy, input.organizationId);

  const now = ports.clock.now().toISOString();
  const { newlyClaimed } = await ports.tenancy.claimIdentifier({
    kind: 'waba-id',
    value: wabaId,
    organizationId: input.organizationId,
    claimedAt: now,
  });
  try {
    const existing = await ports.tenancy.getBusinessAccount(input.organizationId, wabaId);
    const account: BusinessAccount = {
      organizationId: input.organizationId,
      wabaId,
      businessId,
      name,
      encryptedAccessToken: await ports.cipher.encrypt(accessToken, upstreamTokenContext(input.organizationId, wabaId)),
      status: 'active',
      messagesPerSecond: messagesPerSecond ?? existing?.messagesPerSecond,
      // A reconnection (a new token) keeps the operator's Marketing Messages API setting.
      ...(existing?.marketingMessages === undefined ? {} : { marketingMessages: existing.marketingMessages }),
      connectedAt: existing?.connectedAt ?? now,
      updatedAt: now,
    };
    await ports.tenancy.putBusinessAccount(account);
    return summarizeBusinessAccount(account);
  } catch (error) {
    if (newlyClaimed) await releaseQuietly(ports.tenancy, 'waba-id', wabaId, input.organizationId);
    throw error;
  }
}

export interface SetMarketingMessagesInput {
  wabaId: string;
  /** `auto` | `enabled` | `disabled` (tenancy-entities.ts `MarketingMessagesSetting`). */
  setting: string;
}

/**
 * Sets whether a business account's MARKETING template broadcasts go through Meta's Marketing
 * Messages API (docs/BROADCAST.md "Marketing Messages API"). The account is named by its WABA id
 * alone, found through its global claim; broadcasts accepted from then on follow the new setting
 * (a job keeps the route it was accepted with).
 *
 * @example
 * await setMarketingMessages(ports, { wabaId: '102290129340398', setting: 'enabled' });
 * // { organizationId: 'org_…', wabaId: '102290129340398', …, marketingMessages: 'enabled' }
 */
export async function setMarketingMessages(
  ports: { tenancy: AccountDirectory; clock: Clock },
  input: SetMarketingMessagesInput,
): Promise<BusinessAccountSummary> {
  const wabaId = requireIdentifier(input.wabaId, 'wabaId');
  const setting: MarketingMessagesSetting = requireOneOf(input.setting, marketingMessagesSettings, 'marketingMessages');
  const claim = await ports.tenancy.getIdentifierClaim('waba-id', wabaId);
  if (!claim) throw new BusinessAccountNotConnectedError(wabaId);
  const account = await ports.tenancy.setBusinessAccountMarketingMessages(claim.organizationId, wabaId, {
    marketingMessages: setting,
    updatedAt: ports.clock.now().toISOString(),
  });
  return summarizeBusinessAccount(account);
}

export interface AddPhoneNumberInput {
  organizationId: string;
  wabaId: string;
  /** Digits only, country code included. */
  digits: string;
  phoneNumberId: string;
}

/**
 * Adds a sender number to a connected business account. Both the digits and the upstream id are
 * claimed globally (each claim is one conditional write), then the organization's record is
 * written. Re-running it for the same organization is harmless; for another organization it fails
 * with IdentifierClaimedByAnotherOrganizationError and leaves the owner's claims untouched.
 */
export async function addPhoneNumber(ports: { tenancy: OrganizationStore & AccountDirectory; clock: Clock }, input: AddPhoneNumberInput): Promise<PhoneNumber> {
  const wabaId = requireIdentifier(input.wabaId, 'wabaId');
  const digits = requirePhoneDigits(input.digits, 'phoneNumber');
  const phoneNumberId = requireIdentifier(input.phoneNumberId, 'phoneNumberId');
  await requireOrganization(ports.tenancy, input.organizationId);
  if (!(await ports.tenancy.getBusinessAccount(input.organizationId, wabaId))) {
    throw new BusinessAccountNotFoundError(input.organizationId, wabaId);
  }

  const now = ports.clock.now().toISOString();
  const phoneNumber: PhoneNumber = { organizationId: input.organizationId, wabaId, digits, phoneNumberId, addedAt: now };
  const claimedNow: Array<{ kind: 'phone-number-digits' | 'phone-number-id'; value: string }> = [];
  try {
    for (const [kind, value] of [
      ['phone-number-digits', digits],
      ['phone-number-id', phoneNumberId],
    ] as const) {
      const { newlyClaimed } = await ports.tenancy.claimIdentifier({
        kind,
        value,
        organizationId: input.organizationId,
        phoneNumber,
        claimedAt: now,
      });
      if (newlyClaimed) claimedNow.push({ kind, value });
    }
    await ports.tenancy.putPhoneNumber(phoneNumber);
    return phoneNumber;
  } catch (error) {
    for (const claim of claimedNow) await releaseQuietly(ports.tenancy, claim.kind, claim.value, input.organizationId);
    throw error;
  }
}

/** Compensation is best effort: the original failure is what the caller needs to see. */
async function releaseQuietly(
  tenancy: AccountDirectory,
  kind: 'waba-id' | 'phone-number-digits' | 'phone-number-id',
  value: string,
  organizationId: string,
): Promise<void> {
  try {
    await tenancy.releaseIdentifier(kind, value, organizationId);
  } catch {
    // A claim left behind still names this organization; re-running the operation reuses it.
  }
}

/**
 * Decrypts the upstream token of an account already loaded by the caller (for instance while
 * listing all accounts of an organization). Cached for a few minutes per ciphertext.
 */
export async function decryptBusinessAccountToken(
  ports: { cipher: TokenCipher; clock: Clock; decryptedTokenCache: DecryptedTokenCache },
  account: BusinessAccount,
): Promise<string> {
  if (account.status === 'needs-authorization') throw new BusinessAccountNeedsAuthorizationError(account.wabaId);
  const cached = ports.decryptedTokenCache.get(account.organizationId, account.wabaId, account.encryptedAccessToken, ports.clock.now());
  if (cached !== undefined) return cached;
  const plaintext = await ports.cipher.decrypt(account.encryptedAccessToken, upstreamTokenContext(account.organizationId, account.wabaId));
  ports.decryptedTokenCache.set(account.organizationId, account.wabaId, account.encryptedAccessToken, plaintext, ports.clock.now());
  return plaintext;
}

/**
 * The upstream token of one of the organization's business accounts. The account is read on
 * every call (one strongly consistent GetItem) so disconnections and re-authorizations apply at
 * once; only the KMS decryption is cached.
 */
export async function decryptUpstreamAccessToken(
  ports: { tenancy: AccountDirectory; cipher: TokenCipher; clock: Clock; decryptedTokenCache: DecryptedTokenCache },
  input: { organizationId: string; wabaId: string },
): Promise<string> {
  const account = await ports.tenancy.getBusinessAccount(input.organizationId, input.wabaId);
  if (!account) throw new BusinessAccountNotFoundError(input.organizationId, input.wabaId);
  return decryptBusinessAccountToken(ports, account);
}

/**
 * Flags a connection whose token the upstream API rejected. Conditioned on the ciphertext the
 * caller used, so a token replaced in the meantime by a new connection is not flagged by mistake.
 */
export async function markBusinessAccountNeedsAuthorization(
  ports: { tenancy: AccountDirectory; clock: Clock },
  account: Pick<BusinessAccount, 'organizationId' | 'wabaId' | 'encryptedAccessToken'>,
): Promise<void> {
  await ports.tenancy.markBusinessAccountNeedsAuthorization(
    account.organizationId,
    account.wabaId,
    account.encryptedAccessToken,
    ports.clock.now().toISOString(),
  );
}
