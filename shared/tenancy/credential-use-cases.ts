import { hashSecret, secretBodyLength, type SecretGenerator } from '../crypto/secret-generator';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { ApiKeyRegistry } from './api-key-registry';
import {
  ApiKeyRegistrationError,
  CredentialNotFoundError,
  CredentialStoreUnavailableError,
  InvalidCredentialError,
  InvalidTenancyInputError,
  OrganizationNotFoundError,
  PhoneNumberNotFoundError,
  PlanDoesNotIncludeFeatureError,
  TenancyStoreUnavailableError,
} from './errors';
import {
  credentialKinds,
  credentialPrefixes,
  generatedKeySlotHolder,
  hasV1ApiAccess,
  scopeOfCredential,
  summarizeCredential,
  type Credential,
  type CredentialKind,
  type CredentialOrigin,
  type CredentialSummary,
  type KeyScope,
  type Organization,
  type Plan,
} from './tenancy-entities';
import { requireOneOf, requirePhoneDigits } from './tenancy-input';
import { requireActiveOrganization } from './organization-standing-rule';
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

export type IssuePorts = {
  tenancy: OrganizationStore & AccountDirectory & CredentialStore;
  clock: Clock;
  ids: IdGenerator;
  secrets: SecretGenerator;
  apiKeyRegistry: ApiKeyRegistry;
};

/** Recorded with a credential that was not issued by an operator's command (never settable from the CLI). */
export interface Provenance {
  origin: CredentialOrigin;
  sourceIpHash?: string;
}

/** A credential checked and made, not stored yet: `issueCredential` stores it, generate-key first takes a slot for it. */
export interface CredentialDraft {
  credential: Credential;
  secret: string;
}

/**
 * Issues a credential: `wbk_…` broadcast keys, `wot_…` organization tokens, `wat_…` upstream access
 * tokens, `wv1_…` v1 keys (prefix plus 256 random bits). Broadcast keys are also registered with
 * the API key registry (API Gateway's usage plan in AWS) before the hash is stored, and removed
 * from it again if storing fails, so a key is never usable at the gateway without being known here.
 *
 * @example
 * const { secret } = await issueCredential(ports, { organizationId: 'org_1', kind: 'organization-token' });
 */
export async function issueCredential(ports: IssuePorts, input: IssueCredentialInput, provenance?: Provenance): Promise<IssuedCredential> {
  return storeCredential(ports, await draftCredential(ports, input, provenance));
}

/**
 * Checks the input against the organization and makes the credential and its secret (nothing is
 * written). Throws OrganizationNotFoundError, PlanDoesNotIncludeFeatureError, InvalidTenancyInputError,
 * PhoneNumberNotFoundError.
 *
 * @example
 * const draft = await draftCredential(ports, { organizationId: 'org_1', kind: 'broadcast-api-key' });
 */
export async function draftCredential(ports: IssuePorts, input: IssueCredentialInput, provenance?: Provenance): Promise<CredentialDraft> {
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
  const credential: Credential = {
    credentialId: ports.ids.newId('cred'),
    kind,
    secretHash: hashSecret(secret),
    organizationId: input.organizationId,
    boundPhoneNumber,
    ...provenance,
    expiresAt,
    createdAt: now.toISOString(),
  };
  return { credential, secret };
}

/**
 * Registers a broadcast key with the API key registry, then stores the credential (the registration
 * is undone when storing fails). Throws ApiKeyRegistrationError.
 *
 * @example
 * const issued = await storeCredential(ports, await draftCredential(ports, input));
 */
export async function storeCredential(ports: Pick<IssuePorts, 'tenancy' | 'apiKeyRegistry'>, draft: CredentialDraft): Promise<IssuedCredential> {
  const { credentialId, organizationId, kind, origin } = draft.credential;
  let gatewayApiKeyId: string | undefined;
  if (kind === 'broadcast-api-key') {
    try {
      ({ gatewayApiKeyId } = await ports.apiKeyRegistry.registerBroadcastKey({
        credentialId,
        organizationId,
        plaintextKey: draft.secret,
        origin: origin ?? 'operator',
      }));
    } catch (error) {
      throw new ApiKeyRegistrationError(`Registering broadcast key ${credentialId} failed: ${(error as Error).message}`);
    }
  }
  const credential: Credential = { ...draft.credential, gatewayApiKeyId };
  try {
    await ports.tenancy.putCredential(credential);
  } catch (error) {
    if (gatewayApiKeyId) await ports.apiKeyRegistry.removeBroadcastKey(gatewayApiKeyId).catch(() => undefined);
    throw error;
  }
  return { credential: summarizeCredential(credential), secret: draft.secret };
}

/**
 * Revokes a credential of the organization; revoking twice is not an error. A key minted by
 * generate-key gives its slot back (shared/tenancy/generated-keys.ts).
 *
 * @example
 * await revokeCredential(ports, { organizationId: 'org_1', credentialId: 'cred_1' });
 */
export async function revokeCredential(
  ports: { tenancy: CredentialStore; clock: Clock; apiKeyRegistry: ApiKeyRegistry },
  input: { organizationId: string; credentialId: string },
): Promise<CredentialSummary> {
  const credential = await ports.tenancy.findCredentialById(input.organizationId, input.credentialId);
  if (!credential) throw new CredentialNotFoundError(input.credentialId);
  const revoked = await ports.tenancy.revokeCredential(credential.secretHash, input.organizationId, ports.clock.now().toISOString());
  // The store is authoritative (handlers reject revoked keys); removing the gateway key also stops
  // the revoked key from consuming usage-plan quota (and a minted key from holding the Region's key quota).
  if (revoked.gatewayApiKeyId) await ports.apiKeyRegistry.removeBroadcastKey(revoked.gatewayApiKeyId);
  if (revoked.origin === 'generate-key') await ports.tenancy.releaseGeneratedKeySlot(revoked.organizationId, generatedKeySlotHolder(revoked));
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
 * What the organization's state allows a valid credential, checked on every request (not at issue
 * time only: a plan can be downgraded, an organization suspended, generation turned off while keys
 * live). The suspension rule is `requireActiveOrganization`, shared with people's sign-in.
 */
function requireUsableOrganization(found: Organization | undefined, credential: Credential): Organization {
  const organization = requireActiveOrganization(found, () => new InvalidCredentialError());
  if (credential.kind === 'v1-api-key' && !hasV1ApiAccess(organization)) throw new PlanDoesNotIncludeFeatureError(v1PlanRequiredMessage);
  // Turning generation off revokes the minted keys (generated-keys.ts); this also stops one minted
  // in the same instant, which that revocation's listing could miss.
  if (credential.origin === 'generate-key' && organization.keyGenerationEnabled !== true) throw new InvalidCredentialError();
  return organization;
}

/**
 * Resolves a presented secret to its organization. Malformed secrets and secrets of another kind
 * are rejected before any read. Otherwise one strongly consistent read by hash (no comparison of
 * secrets happens in code, so there is no timing side channel to worry about) and one read of the
 * organization, which also yields the plan for v1 limits.
 *
 * A valid v1 key of an organization whose plan no longer includes the v1 API raises
 * PlanDoesNotIncludeFeatureError (403), not InvalidCredentialError: the key is fine, the plan is not.
 * Likewise a valid credential of a suspended organization raises OrganizationSuspendedError (403).
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
    const organization = requireUsableOrganization(await ports.tenancy.getOrganization(credential.organizationId), credential);
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
