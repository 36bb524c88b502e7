/**
 * Keys minted by the public generate-key operation (docs/FREEFORM-AND-EARLIER.md "generate-key"):
 * minting one for a sender number within the organization's cap, listing and revoking them, and
 * turning generation on or off (off revokes every minted key in the same command).
 *
 * The cap: every minted key is an API Gateway key, and the account's API key quota is per Region,
 * shared by every tenant, so one organization's public number must not be able to exhaust it. Each
 * live minted key holds one of the organization's slots (one item, a set of holders, one
 * conditional write per mint: exact under concurrency, and an SDK retry finds its own holder);
 * revoking a minted key gives its slot back.
 */
import { hashSecret } from '../crypto/secret-generator';
import type { Clock } from '../ports/clock';
import type { ApiKeyRegistry } from './api-key-registry';
import { draftCredential, revokeCredential, storeCredential, type IssuedCredential, type IssuePorts } from './credential-use-cases';
import {
  BusinessAccountNeedsAuthorizationError,
  BusinessAccountNotFoundError,
  CredentialNotFoundError,
  GeneratedKeyLimitReachedError,
  InvalidTenancyInputError,
  KeyGenerationNotEnabledError,
  OrganizationNotFoundError,
  PhoneNumberNotFoundError,
} from './errors';
import { generatedKeySlotHolder, type Credential, type CredentialSummary, type Organization } from './tenancy-entities';
import { requirePhoneDigits } from './tenancy-input';
import type { CredentialStore, OrganizationStore } from './tenancy-stores';

/**
 * A slot whose holder's key is not stored this long after its creation time was left by a minting
 * that died between taking the slot and storing the key (the longest a function may run is 15
 * minutes), so it is taken back. Younger ones may be a minting still under way.
 */
const orphanedSlotAfterMs = 15 * 60_000;

export type MintPorts = IssuePorts & { generatedKeysPerOrganization: number };

/**
 * The earlier `generate-key` operation: a broadcast key bound to a sender number, for whichever
 * organization owns that number, if that organization turned key generation on and is active. The
 * number's business account must be connected and usable. Every refusal is a different error class
 * here; the route answers them all alike (no oracle for which one applied), except the cap
 * (GeneratedKeyLimitReachedError), which only an organization that allows generation can reach.
 *
 * The key is recorded with its origin (its scope is then `earlier-sender`) and a hash of the
 * caller's source IP, so the organization can list and revoke what was minted.
 *
 * @example
 * const { secret } = await issueBroadcastKeyForPhoneNumber(ports, { phoneNumber: '15550100001', sourceIp: '203.0.113.7' });
 */
export async function issueBroadcastKeyForPhoneNumber(ports: MintPorts, input: { phoneNumber: string; sourceIp?: string }): Promise<IssuedCredential> {
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
  const draft = await draftCredential(
    ports,
    { organizationId: phoneNumber.organizationId, kind: 'broadcast-api-key', boundPhoneNumber: digits },
    { origin: 'generate-key', ...(sourceIp ? { sourceIpHash: hashSourceIp(sourceIp) } : {}) },
  );
  await holdSlot(ports, draft.credential);
  try {
    return await storeCredential(ports, draft);
  } catch (error) {
    await ports.tenancy.releaseGeneratedKeySlot(draft.credential.organizationId, generatedKeySlotHolder(draft.credential)).catch(() => undefined);
    throw error;
  }
}

/** Takes a slot for the key about to be stored; when all are held, takes back the stale ones and tries once more. */
async function holdSlot(ports: MintPorts, credential: Credential): Promise<void> {
  const { organizationId } = credential;
  const limit = ports.generatedKeysPerOrganization;
  const holder = generatedKeySlotHolder(credential);
  if (await ports.tenancy.holdGeneratedKeySlot(organizationId, holder, limit)) return;
  if ((await takeBackStaleSlots(ports, organizationId)) > 0 && (await ports.tenancy.holdGeneratedKeySlot(organizationId, holder, limit))) return;
  throw new GeneratedKeyLimitReachedError(organizationId, limit);
}

/**
 * Slots no live key needs: its key was revoked (a revocation that died before giving the slot back)
 * or was never stored (a minting that died in between, see `orphanedSlotAfterMs`). Returns how many
 * were given back.
 */
async function takeBackStaleSlots(ports: Pick<MintPorts, 'tenancy' | 'clock'>, organizationId: string): Promise<number> {
  const [holders, credentials] = await Promise.all([ports.tenancy.listGeneratedKeySlots(organizationId), ports.tenancy.listCredentials(organizationId)]);
  const byId = new Map(credentials.map((credential) => [credential.credentialId, credential]));
  const now = ports.clock.now().getTime();
  let givenBack = 0;
  for (const holder of holders) {
    const [createdAt = '', credentialId = ''] = holder.split(' ');
    const credential = byId.get(credentialId);
    const stale = credential ? credential.revokedAt !== undefined : now - Date.parse(createdAt) > orphanedSlotAfterMs;
    if (!stale) continue;
    await ports.tenancy.releaseGeneratedKeySlot(organizationId, holder);
    givenBack += 1;
  }
  return givenBack;
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

/**
 * Every key generate-key minted for the organization, oldest first, revoked ones included.
 *
 * @example
 * const keys = await listGeneratedKeys(ports, { organizationId: 'org_1' });
 */
export async function listGeneratedKeys(
  ports: { tenancy: OrganizationStore & CredentialStore },
  input: { organizationId: string },
): Promise<GeneratedKeySummary[]> {
  const organization = await ports.tenancy.getOrganization(input.organizationId);
  if (!organization) throw new OrganizationNotFoundError(input.organizationId);
  const credentials = await ports.tenancy.listCredentials(input.organizationId);
  return credentials
    .filter((credential) => credential.origin === 'generate-key')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.credentialId.localeCompare(b.credentialId))
    .map(summarizeGeneratedKey);
}

type RevokePorts = { tenancy: CredentialStore; clock: Clock; apiKeyRegistry: ApiKeyRegistry };

/**
 * Revokes a key minted by generate-key; any other credential id of the organization is "not found".
 *
 * @example
 * await revokeGeneratedKey(ports, { organizationId: 'org_1', credentialId: 'cred_1' });
 */
export async function revokeGeneratedKey(ports: RevokePorts, input: { organizationId: string; credentialId: string }): Promise<GeneratedKeySummary> {
  const credential = await ports.tenancy.findCredentialById(input.organizationId, input.credentialId);
  if (credential?.origin !== 'generate-key') throw new CredentialNotFoundError(input.credentialId);
  return summarizeGeneratedKey(await revokeCredential(ports, input));
}

/** The organization after set-key-generation, with the minted keys that command revoked (ids; none when turned on). */
export type KeyGenerationSetting = Organization & { revokedGeneratedKeys: string[] };

/**
 * Turns the public generate-key operation on or off for the organization's numbers. Turning it off
 * also revokes every live key minted so far (their API Gateway keys deleted, their slots given
 * back), so they stop at once and for good: turning generation on again revives none of them.
 * Authentication refuses a minted key of an organization with generation off as well, which stops a
 * key minted in the same instant that this command's listing (an index) did not show yet.
 *
 * @example
 * const { revokedGeneratedKeys } = await setKeyGeneration(ports, { organizationId: 'org_1', enabled: false });
 */
export async function setKeyGeneration(
  ports: RevokePorts & { tenancy: OrganizationStore & CredentialStore },
  input: { organizationId: string; enabled: boolean },
): Promise<KeyGenerationSetting> {
  if (typeof input.enabled !== 'boolean') throw new InvalidTenancyInputError('enabled must be true or false');
  const organization = await ports.tenancy.updateOrganizationKeyGeneration(input.organizationId, {
    keyGenerationEnabled: input.enabled,
    updatedAt: ports.clock.now().toISOString(),
  });
  if (input.enabled) return { ...organization, revokedGeneratedKeys: [] };
  const live = (await ports.tenancy.listCredentials(input.organizationId)).filter(
    (credential) => credential.origin === 'generate-key' && credential.revokedAt === undefined,
  );
  const revokedGeneratedKeys: string[] = [];
  // One at a time: each revocation deletes a gateway key, whose API allows only a few calls a second.
  for (const credential of live) {
    await revokeCredential(ports, { organizationId: input.organizationId, credentialId: credential.credentialId });
    revokedGeneratedKeys.push(credential.credentialId);
  }
  return { ...organization, revokedGeneratedKeys };
}
