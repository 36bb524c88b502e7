/**
 * The organization's own broadcast API keys, managed by the organization (an admin's sign-in or its
 * own organization-scope key; docs/PEOPLE.md "API keys"): list, issue, revoke. Issuing and revoking
 * are the operator's use cases (credential-use-cases.ts), so a key made here is registered with the
 * gateway's usage plan and a revoked one leaves it, exactly as with `issue-broadcast-key`.
 */
import type { Clock } from '../ports/clock';
import type { ApiKeyRegistry } from './api-key-registry';
import { issueCredential, revokeCredential, type IssuePorts } from './credential-use-cases';
import { ApiKeyManagementOutsideKeyScopeError, ApiKeyNotFoundError, ApiKeySenderNotFoundError } from './errors';
import type { ApiKeyView, CreatedApiKey } from './api-key-view';
import type { Credential, KeyScope } from './tenancy-entities';
import type { CredentialStore } from './tenancy-stores';

/** Who manages the keys: the organization, through a caller whose scope is known (absent for people, who are the organization's). */
export type { ApiKeyView, CreatedApiKey } from './api-key-view';

export interface ApiKeyManager {
  organizationId: string;
  scope?: KeyScope;
}

const CREDENTIAL_ID = /^cred_[A-Za-z0-9_-]{1,64}$/;

function requireKeyManager(manager: ApiKeyManager): void {
  if (manager.scope !== undefined && manager.scope.kind !== 'organization') throw new ApiKeyManagementOutsideKeyScopeError();
}

function viewOf(credential: Credential): ApiKeyView {
  return {
    credentialId: credential.credentialId,
    ...(credential.boundPhoneNumber !== undefined ? { boundPhoneNumber: credential.boundPhoneNumber } : {}),
    origin: credential.origin ?? 'operator',
    createdAt: credential.createdAt,
    ...(credential.revokedAt !== undefined ? { revokedAt: credential.revokedAt } : {}),
    ...(credential.expiresAt !== undefined ? { expiresAt: credential.expiresAt } : {}),
  };
}

/**
 * The organization's broadcast API keys, newest first, revoked ones included (with `revokedAt`).
 * Other credential kinds (organization tokens, v1 keys, upstream tokens) are the operator's and are
 * not listed. Throws ApiKeyManagementOutsideKeyScopeError for a key bound to one sender.
 *
 * @example
 * const keys = await listOrganizationApiKeys({ tenancy }, { organizationId: 'org_1', scope: { kind: 'organization' } });
 */
export async function listOrganizationApiKeys(ports: { tenancy: Pick<CredentialStore, 'listCredentials'> }, manager: ApiKeyManager): Promise<ApiKeyView[]> {
  requireKeyManager(manager);
  const credentials = await ports.tenancy.listCredentials(manager.organizationId);
  return credentials
    .filter((credential) => credential.kind === 'broadcast-api-key')
    .map(viewOf)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.credentialId.localeCompare(a.credentialId));
}

/**
 * Issues a broadcast key of the organization (bound to one of its sender numbers when `phoneNumber`
 * is given), registered with the gateway's usage plan. Throws ApiKeyManagementOutsideKeyScopeError,
 * ApiKeySenderNotFoundError for a number that is not the organization's.
 *
 * @example
 * const { apiKey } = await createOrganizationApiKey(ports, { organizationId: 'org_1' }, { phoneNumber: '15550100001' });
 */
export async function createOrganizationApiKey(ports: IssuePorts, manager: ApiKeyManager, input: { phoneNumber?: string }): Promise<CreatedApiKey> {
  requireKeyManager(manager);
  if (input.phoneNumber !== undefined) {
    const numbers = await ports.tenancy.listPhoneNumbers(manager.organizationId);
    if (!numbers.some((number) => number.digits === input.phoneNumber)) throw new ApiKeySenderNotFoundError();
  }
  const { credential, secret } = await issueCredential(
    ports,
    { organizationId: manager.organizationId, kind: 'broadcast-api-key', boundPhoneNumber: input.phoneNumber },
    { origin: 'organization-admin' },
  );
  return {
    credentialId: credential.credentialId,
    apiKey: secret,
    ...(credential.boundPhoneNumber !== undefined ? { boundPhoneNumber: credential.boundPhoneNumber } : {}),
    createdAt: credential.createdAt,
  };
}

/**
 * Revokes one of the organization's broadcast keys (the calling key itself too); revoking twice is
 * not an error. Any other id (another organization's, another credential kind) is ApiKeyNotFoundError.
 *
 * @example
 * await revokeOrganizationApiKey(ports, { organizationId: 'org_1' }, 'cred_1'); // { credentialId: 'cred_1', revoked: true }
 */
export async function revokeOrganizationApiKey(
  ports: { tenancy: CredentialStore; clock: Clock; apiKeyRegistry: ApiKeyRegistry },
  manager: ApiKeyManager,
  credentialId: string,
): Promise<{ credentialId: string; revoked: true }> {
  requireKeyManager(manager);
  // An id no issue could have made is not looked up (nor is a key of kilobytes sent to the store).
  if (!CREDENTIAL_ID.test(credentialId)) throw new ApiKeyNotFoundError();
  const credential = await ports.tenancy.findCredentialById(manager.organizationId, credentialId);
  if (credential?.kind !== 'broadcast-api-key') throw new ApiKeyNotFoundError();
  await revokeCredential(ports, { organizationId: manager.organizationId, credentialId });
  return { credentialId, revoked: true };
}

/** The three use cases bound to their ports (TenancyServices.organizationApiKeys). */
export interface OrganizationApiKeys {
  list(manager: ApiKeyManager): Promise<ApiKeyView[]>;
  create(manager: ApiKeyManager, input: { phoneNumber?: string }): Promise<CreatedApiKey>;
  revoke(manager: ApiKeyManager, credentialId: string): Promise<{ credentialId: string; revoked: true }>;
}

/**
 * Binds the use cases; ports are read at call time (lazy getters of a composition root stay lazy).
 *
 * @example
 * const keys = bindOrganizationApiKeys(ports); await keys.list({ organizationId: 'org_1' });
 */
export function bindOrganizationApiKeys(ports: IssuePorts): OrganizationApiKeys {
  return {
    list: (manager) => listOrganizationApiKeys(ports, manager),
    create: (manager, input) => createOrganizationApiKey(ports, manager, input),
    revoke: (manager, credentialId) => revokeOrganizationApiKey(ports, manager, credentialId),
  };
}
