/**
 * The isolation checks of the wrapper, run before any upstream call: a business account or phone
 * number must be connected to the caller's organization (else 404, whatever the reason), and its
 * stored credentials are what the call uses.
 */
import type { UpstreamTarget } from '../../runtime-contract/upstream-routes';
import { BusinessAccountNeedsAuthorizationError } from '../tenancy/errors';
import type { BusinessAccount, PhoneNumber } from '../tenancy/tenancy-entities';
import { UpstreamRejectedError, UpstreamTargetNotFoundError, type UpstreamTargetKind } from './errors';
import type { UpstreamWrapperDependencies } from './ports';

/**
 * Ids that may become Graph path segments: what tenancy allows for its own ids, minus dot-only
 * values (`..` would be normalised away by the URL parser).
 */
const UPSTREAM_ID = /^(?!\.+$)[A-Za-z0-9._-]{1,128}$/;

export function requireUpstreamId(value: string | undefined, kind: UpstreamTargetKind): string {
  if (value === undefined || !UPSTREAM_ID.test(value)) throw new UpstreamTargetNotFoundError(kind, String(value ?? ''));
  return value;
}

export async function resolveBusinessAccount(deps: UpstreamWrapperDependencies, organizationId: string, wabaId: string | undefined): Promise<BusinessAccount> {
  const id = requireUpstreamId(wabaId, 'business-account');
  const account = await deps.tenancy.repository.getBusinessAccount(organizationId, id);
  if (!account) throw new UpstreamTargetNotFoundError('business-account', id);
  return account;
}

export async function resolvePhoneNumber(
  deps: UpstreamWrapperDependencies,
  organizationId: string,
  phoneNumberId: string | undefined,
): Promise<{ account: BusinessAccount; phoneNumber: PhoneNumber }> {
  const id = requireUpstreamId(phoneNumberId, 'phone-number');
  const phoneNumber = await deps.tenancy.repository.findPhoneNumberById(id);
  if (!phoneNumber || phoneNumber.organizationId !== organizationId) throw new UpstreamTargetNotFoundError('phone-number', id);
  const account = await deps.tenancy.repository.getBusinessAccount(organizationId, phoneNumber.wabaId);
  if (!account) throw new UpstreamTargetNotFoundError('phone-number', id);
  return { account, phoneNumber };
}

/** What a flagged account answers instead of calling Meta: the OAuth error Meta gave for its token. */
export const needsAuthorizationError = (wabaId: string) =>
  new UpstreamRejectedError(401, {
    message: `The connection of business account ${wabaId} needs to be authorized again; reconnect the account`,
    type: 'OAuthException',
    code: 190,
  });

/** The account's upstream token (decrypted, cached); a flagged account answers Meta's OAuth error. */
export async function accessTokenOf(deps: UpstreamWrapperDependencies, account: BusinessAccount): Promise<string> {
  try {
    return await deps.tenancy.decryptBusinessAccountToken(account);
  } catch (error) {
    if (error instanceof BusinessAccountNeedsAuthorizationError) throw needsAuthorizationError(account.wabaId);
    throw error;
  }
}

export interface ResolvedTarget {
  account: BusinessAccount;
  accessToken: string;
  phoneNumber?: PhoneNumber;
}

/** Resolves the account of a route whose target is a business account or a phone number. */
export async function resolveTarget(
  deps: UpstreamWrapperDependencies,
  target: Exclude<UpstreamTarget, 'organization'>,
  organizationId: string,
  pathParameters: Readonly<Record<string, string>>,
): Promise<ResolvedTarget> {
  if (target === 'waba') {
    const account = await resolveBusinessAccount(deps, organizationId, pathParameters.wabaId);
    return { account, accessToken: await accessTokenOf(deps, account) };
  }
  const { account, phoneNumber } = await resolvePhoneNumber(deps, organizationId, pathParameters.phoneNumberId);
  return { account, phoneNumber, accessToken: await accessTokenOf(deps, account) };
}
