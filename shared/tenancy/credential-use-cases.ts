import { hashSecret, secretBodyLength, type SecretGenerator } from '../crypto/secret-generator';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { ApiKeyRegistry } from './api-key-registry';
import {
  ApiKeyRegistrationError,
  BusinessAccountNeedsAuthorizationError,
  BusinessAccountNotFoundError,
  CredentialNotFoundError,
  CredentialStoreUnavailableError,
  InvalidCredentialError,
  InvalidTenancyInputError,
  KeyGenerationNotEnabledError,
  OrganizationNotFoundError,
  PhoneNumberNotFoundError,
  PlanDoesNotIncludeFeatureError,
  TenancyStoreUnavailableError,
} from './errors';
import {
  credentialKinds,
  credentialPrefixes,
  hasV1ApiAccess,
  scopeOfCredential,
  summarizeCredential,
  type Credential,
  type CredentialKind,
  type CredentialOrigin,
  type CredentialSummary,
  type KeyScope,
  type Plan,
} from './tenancy-entities';
import { requireOneOf, requirePhoneDigits } from './tenancy-input';
import type { AccountDirectory, CredentialStore, OrganizationStore } from './tenancy-stores';

const millisecondsPerDay = 86_400_000;

/** Why a v1 key is refused although it is valid (403 PLAN_REQUIRED). */
export const v1PlanRequiredMessage = 'The v1 API needs the enterprise plan or the API add-on';

export interface IssueCredentialInput {
  organizationId: string;
  kind: CredentialKind;
  /** Broadcast keys only: restricts the key to one of the organization's sender numbers. */
  boundPhoneNumber?: string;
  /** Whole days until the credential stops working; no expiry when omitted. */
  expiresInDays?: number;
}

export interface IssuedCredential {
  credential: CredentialSummary;
  /** The plaintext secret. Returned once, here; only its hash is stored. */
  secret: string;
}

type IssuePorts = { tenancy: OrganizationStore & AccountDirectory & CredentialStore; clock: Clock; ids: IdGenerator; secrets: SecretGenerator; apiKeyRegistry: ApiKeyRegistry };

/** Recorded with a credential that was not issued by an operator's command (never settable from the CLI). */
interface Provenance {
  origin: CredentialOrigin;
  sourceIpHash?: string;
}

/**
 * Issues a credential: `wbk_…` broadcast keys, `wot_…` organization tokens, `wat_…` upstream access
 * tokens, `wv1_…` v1 keys (prefix plus 256 random bits). Broadcast keys are also registered with
 * the API key registry (API Gateway's usage plan in AWS) before the hash is stored, and removed
 * from it again if storing fails, so a key is never usable at the gateway without being known here.
 */
export async function issueCredential(ports: IssuePorts, input: IssueCredentialInput, provenance?: Provenance): Promise<IssuedCredential> {
  const kind = requireOneOf(input.kind, credentialKinds, 'kind');
  const organization = await ports.tenancy.getOrganization(input.organizationId);
  if (!organization) throw new OrganizationNotFoundError(input.organizationId);
  if (kind === 'v1-api-key' && !hasV1ApiAccess(organization)) {
    throw new PlanDoesNotIncludeFeatureError(v1PlanRequiredMessage);
  }

  let boundPhoneNumber: string | undefined;
  if (input.boundPhoneNumber !== undefined) {
    if (kind !== 'broadcast-api-key') throw new InvalidTenancyInputError('Only broadcast API keys can be bound to a phone number');
    boundPhoneNumber = requirePhoneDigits(input.boundPhoneNumber, 'phoneNumber');
    const phoneNumber = await ports.tenancy.findPhoneNumberByDigits(boundPhoneNumber);
    if (phoneNumber?.organizationId !== input.organizationId) throw new PhoneNumberNotFoundError(boundPhoneNumber);
  }

  const now = ports.clock.now();
  let expiresAt: string | undefined;
  if (input.expiresInDays !== undefined) {
    if (!Number.isInteger(input.expiresInDays) || input.expiresInDays < 1 || input.expiresInDays > 3650) {
      throw new InvalidTenancyInputError('expiresInDays must be a whole number of days from 1 to 3650');
    }
    expiresAt = new Date(now.getTime() + input.expiresInDays * millisecondsPerDay).toISOString();
  }

  const secret = ports.secrets.generateSecret(credentialPrefixes[kind]);
  const credentialId = ports.ids.newId('cred');

  let gatewayApiKeyId: string | undefined;
  if (kind === 'broadcast-api-key') {
    try {
      ({ gatewayApiKeyId } = await ports.apiKeyRegistry.registerBroadcastKey({
        credentialId,
        organizationId: input.organizationId,
        plaintextKey: secret,
        origin: provenance?.origin ?? 'operator',
      }));
    } catch (error) {
      throw new ApiKeyRegistrationError(`Registering broadcast key ${credentialId} failed: ${(error as Error).message}`);
    }
  }

  const credential: Credential = {
    credentialId,
    kind,
    secretHash: hashSecret(secret),
    organizationId: input.organizationId,
    boundPhoneNumber,
    gatewayApiKeyId,
    ...provenance,
    expiresAt,
    createdAt: now.toISOString(),
  };
  try {
    await ports.tenancy.putCredential(credential);
  } catch (error) {
    if (gatewayApiKeyId) await ports.apiKeyRegistry.removeBroadcastKey(gatewayApiKeyId).catch(() => undefined);
    throw error;
  }
  return { credential: summarizeCredential(credential), secret };
}

/**
 * The earlier `generate-key` operation: a broadcast key bound to a sender number, for whichever
 * organization owns that number, if that organization turned key generation on. The number's
 * business account must be connected and usable. Every refusal is a different error class here;
 * the route answers them all alike (no oracle for which one applied).
 *
 * The key is recorded with its origin (its scope is then `earlier-sender`) and a hash of the
 * caller's source IP, so the organization can list and revoke what was minted.
 */
export async function issueBroadcastKeyForPhoneNumber(
  ports: IssuePorts,
  input: { phoneNumber: string; sourceIp?: string },
): Promise<IssuedCredential> {
  const digits = requirePhoneDigits(input.phoneNumber, 'phoneNumber');
  const phoneNumber = await ports.tenancy.findPhoneNumberByDigits(digits);
  if (!phoneNumber) throw new PhoneNumberNotFoundError(digits);
  const organization = await ports.tenancy.getOrganization(phoneNumber.organizationId);
  if (organization?.keyGenerationEnabled !== true || organization.status !== 'active') {
    throw new KeyGenerationNotEnabledError(phoneNumber.organizationId);
  }
  const account = await ports.tenancy.getBusinessAccount(phoneNumber.organizationId, phoneNumber.wabaId);
  if (!account) throw new BusinessAccountNotFoundError(phoneNumber.organizationId, phoneNumber.wabaId);
  if (account.status !== 'active') throw new BusinessAccountNeedsAuthorizationError(account.wabaId);
  const sourceIp = input.sourceIp?.trim();
  return issueCredential(
    ports,
    { organizationId: phoneNumber.organizationId, kind: 'broadcast-api-key', boundPhoneNumber: digits },
    { origin: 'generate-key', ...(sourceIp ? { sourceIpHash: hashSourceIp(sourceIp) } : {}) },
  );
}

/**
 * Pseudonymous, not anonymous: the IPv4 space can be enumerated. Enough to tell whether several
 * keys came from one caller without keeping the address itself; the domain prefix keeps these
 * hashes apart from secret hashes.
 */
function hashSourceIp(sourceIp: string): string {
  return hashSecret(`generate-key-source-ip:${sourceIp}`);
}

/** A key minted by generate-key as the organization may see it: nothing secret, no hash of the key. */
export interface GeneratedKeySummary {
  credentialId: string;
  boundPhoneNumber: string;
  createdAt: string;
  /** SHA-256 of the caller's source IP; null when the source was unknown. */
  sourceIpHash: string | null;
  revokedAt: string | null;
}

const summarizeGeneratedKey = (credential: CredentialSummary): GeneratedKeySummary => ({
  credentialId: credential.credentialId,
  boundPhoneNumber: credential.boundPhoneNumber ?? '',
  createdAt: credential.createdAt,
  sourceIpHash: credential.sourceIpHash ?? null,
  revokedAt: credential.revokedAt ?? null,
});

/** Every key generate-key minted for the organization, oldest first, revoked ones included. */
export async function listGeneratedKeys(ports: { tenancy: OrganizationStore & CredentialStore }, input: { organizationId: string }): Promise<GeneratedKeySummary[]> {
  const organization = await ports.tenancy.getOrganization(input.organizationId);
  if (!organization) throw new OrganizationNotFoundError(input.organizationId);
  const credentials = await ports.tenancy.listCredentials(input.organizationId);
  return credentials
    .filter((credential) => credential.origin === 'generate-key')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.credentialId.localeCompare(b.credentialId))
    .map(summarizeGeneratedKey);
}

/** Revokes a key minted by generate-key; any other credential id of the organization is "not found". */
export async function revokeGeneratedKey(
  ports: { tenancy: CredentialStore; clock: Clock; apiKeyRegistry: ApiKeyRegistry },
  input: { organizationId: string; credentialId: string },
): Promise<GeneratedKeySummary> {
  const credential = await ports.tenancy.findCredentialById(input.organizationId, input.credentialId);
  if (credential?.origin !== 'generate-key') throw new CredentialNotFoundError(input.credentialId);
  return summarizeGeneratedKey(await revokeCredential(ports, input));
}

/** Revokes a credential of the organization; revoking twice is not an error. */
export async function revokeCredential(
  ports: { tenancy: CredentialStore; clock: Clock; apiKeyRegistry: ApiKeyRegistry },
  input: { organizationId: string; credentialId: string },
): Promise<CredentialSummary> {
  const credential = await ports.tenancy.findCredentialById(input.organizationId, input.credentialId);
  if (!credential) throw new CredentialNotFoundError(input.credentialId);
  const revoked = await ports.tenancy.revokeCredential(credential.secretHash, input.organizationId, ports.clock.now().toISOString());
  // The store is authoritative (handlers reject revoked keys); removing the gateway key also stops
  // the revoked key from consuming usage-plan quota.
  if (revoked.gatewayApiKeyId) await ports.apiKeyRegistry.removeBroadcastKey(revoked.gatewayApiKeyId);
  return summarizeCredential(revoked);
}

export interface AuthenticatedCaller {
  organizationId: string;
  credentialId: string;
  credentialKind: CredentialKind;
  /** What the credential may act on (shared/broadcast/key-scope.ts applies it to broadcast operations). */
  scope: KeyScope;
  plan?: Plan;
  apiAddOn?: boolean;
}

const secretPatterns = Object.fromEntries(
  credentialKinds.map((kind) => [kind, new RegExp(`^${credentialPrefixes[kind]}[A-Za-z0-9_-]{${secretBodyLength}}$`)]),
) as Record<CredentialKind, RegExp>;

/**
 * Resolves a presented secret to its organization. Malformed secrets and secrets of another kind
 * are rejected before any read. Otherwise one strongly consistent read by hash (no comparison of
 * secrets happens in code, so there is no timing side channel to worry about) and one read of the
 * organization, which also yields the plan for v1 limits.
 *
 * A valid v1 key of an organization whose plan no longer includes the v1 API raises
 * PlanDoesNotIncludeFeatureError (403), not InvalidCredentialError: the key is fine, the plan is not.
 *
 * Throws InvalidCredentialError for every kind of refusal, CredentialStoreUnavailableError when the
 * store cannot answer (503, so clients retry instead of discarding a valid key).
 */
export async function authenticateCredential(
  ports: { tenancy: OrganizationStore & CredentialStore; clock: Clock },
  kind: CredentialKind,
  presentedSecret: string | undefined | null,
): Promise<AuthenticatedCaller> {
  const secret = presentedSecret?.trim();
  if (!secret || !secretPatterns[kind]?.test(secret)) throw new InvalidCredentialError();

  try {
    const credential = await ports.tenancy.getCredentialByHash(hashSecret(secret));
    const now = ports.clock.now().getTime();
    if (
      !credential ||
      credential.kind !== kind ||
      credential.revokedAt !== undefined ||
      (credential.expiresAt !== undefined && Date.parse(credential.expiresAt) <= now)
    ) {
      throw new InvalidCredentialError();
    }
    const organization = await ports.tenancy.getOrganization(credential.organizationId);
    if (!organization || organization.status !== 'active') throw new InvalidCredentialError();
    // Checked on every request, not at issue time only: a plan can be downgraded while keys live.
    if (kind === 'v1-api-key' && !hasV1ApiAccess(organization)) throw new PlanDoesNotIncludeFeatureError(v1PlanRequiredMessage);
    return {
      organizationId: credential.organizationId,
      credentialId: credential.credentialId,
      credentialKind: credential.kind,
      scope: scopeOfCredential(credential),
      plan: organization.plan,
      apiAddOn: organization.apiAddOn,
    };
  } catch (error) {
    if (error instanceof TenancyStoreUnavailableError && !(error instanceof CredentialStoreUnavailableError)) {
      throw new CredentialStoreUnavailableError(error.message);
    }
    throw error;
  }
}
