/**
 * The tenancy read cache as the /upstream wrapper uses it: the wrapper's services read through the
 * cache, the operators' services (another composition of the same process) only invalidate it,
 * and a second cache stands for another Lambda container.
 */
import { LocalAesTokenCipher, generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { randomSecretGenerator } from '../../../shared/crypto/secret-generator';
import { fixedClock } from '../../../shared/ports/clock';
import { sequentialIdGenerator } from '../../../shared/ports/id-generator';
import { DecryptedTokenCache } from '../../../shared/tenancy/decrypted-token-cache';
import { InvalidCredentialError } from '../../../shared/tenancy/errors';
import type { TenancyPorts } from '../../../shared/tenancy/ports';
import { TenancyReadCache, withTenancyReadCache } from '../../../shared/tenancy/tenancy-read-cache';
import type { TenancyStores } from '../../../shared/tenancy/tenancy-stores';
import { bindTenancyServices } from '../../../shared/tenancy/tenancy-services';
import { UpstreamTargetNotFoundError } from '../../../shared/upstream/errors';
import type { UpstreamWrapperDependencies } from '../../../shared/upstream/ports';
import { resolveTarget } from '../../../shared/upstream/resolve-target';
import { RecordingApiKeyRegistry } from '../../support/tenancy-test-ports';
import { InMemoryTenancyRepository } from '../../support/in-memory-tenancy-repository';

const settings = { credentialTtlMs: 30_000, recordTtlMs: 60_000, maxEntries: 100 };

/** Counts the store reads the cache is meant to save. */
function countingReads(inner: TenancyStores) {
  const reads = { credential: 0, organization: 0, businessAccount: 0, phoneNumber: 0 };
  const repository: TenancyStores = Object.create(inner);
  repository.getCredentialByHash = (hash) => ((reads.credential += 1), inner.getCredentialByHash(hash));
  repository.getOrganization = (id) => ((reads.organization += 1), inner.getOrganization(id));
  repository.getBusinessAccount = (org, waba) => ((reads.businessAccount += 1), inner.getBusinessAccount(org, waba));
  repository.findPhoneNumberById = (id) => ((reads.phoneNumber += 1), inner.findPhoneNumberById(id));
  return { repository, reads };
}

function world() {
  const store = new InMemoryTenancyRepository();
  const clock = fixedClock('2026-01-01T00:00:00.000Z');
  const cipher = new LocalAesTokenCipher(generateLocalTokenKey());
  const portsOver = (tenancy: TenancyStores): TenancyPorts => ({
    tenancy,
    clock,
    ids: sequentialIdGenerator(),
    secrets: randomSecretGenerator,
    cipher,
    apiKeyRegistry: new RecordingApiKeyRegistry(),
    generatedKeysPerOrganization: 50,
    decryptedTokenCache: new DecryptedTokenCache(),
  });
  const processCache = new TenancyReadCache(settings);
  const counted = countingReads(store);
  // The wrapper of this process, and the operators' side of the same process.
  const wrapper = bindTenancyServices(portsOver(withTenancyReadCache(counted.repository, processCache, clock, true)));
  const admin = bindTenancyServices(portsOver(withTenancyReadCache(store, processCache, clock, false)));
  // Another container: its own cache; what this process writes does not reach it.
  const otherContainer = bindTenancyServices(portsOver(withTenancyReadCache(store, new TenancyReadCache(settings), clock, true)));
  return { store, clock, wrapper, admin, otherContainer, reads: counted.reads, processCache };
}

async function tenant(w: ReturnType<typeof world>, name: string, wabaId: string, phoneNumberId: string, accessToken: string) {
  const { organizationId } = await w.admin.admin.createOrganization({ name, plan: 'enterprise' });
  await w.admin.admin.connectBusinessAccount({ organizationId, wabaId, businessId: `biz-${name}`, name, accessToken });
  await w.admin.admin.addPhoneNumber({ organizationId, wabaId, digits: `1555000${wabaId}`, phoneNumberId });
  const issued = await w.admin.admin.issueCredential({ organizationId, kind: 'upstream-access-token' });
  return { organizationId, wabaId, phoneNumberId, token: issued.secret, credentialId: issued.credential.credentialId };
}

/** What resolveTarget needs of the wrapper's dependencies. */
const wrapperDeps = (tenancy: ReturnType<typeof world>['wrapper']) => ({ tenancy }) as unknown as UpstreamWrapperDependencies;

describe('tenancy read cache (the /upstream wrapper)', () => {
  test('repeated requests read the credential, organization, account and number once per time to live', async () => {
    const w = world();
    const a = await tenant(w, 'acme', '1001', '9001', 'EAAG-acme');
    for (let request = 0; request < 5; request += 1) {
      const caller = await w.wrapper.authenticate('upstream-access-token', a.token);
      await resolveTarget(wrapperDeps(w.wrapper), 'phone-number', caller.organizationId, { phoneNumberId: a.phoneNumberId });
    }
    expect(w.reads).toEqual({ credential: 1, organization: 1, businessAccount: 1, phoneNumber: 1 });

    w.clock.advanceBy(settings.credentialTtlMs);
    await w.wrapper.authenticate('upstream-access-token', a.token);
    expect(w.reads.credential).toBe(2);
    expect(w.reads.organization).toBe(1);
  });

  test("tenant A's cached entries are never served for tenant B", async () => {
    const w = world();
    const a = await tenant(w, 'acme', '1001', '9001', 'EAAG-acme');
    const b = await tenant(w, 'bravo', '2002', '9002', 'EAAG-bravo');
    // Warm every cache with A's records.
    const callerA = await w.wrapper.authenticate('upstream-access-token', a.token);
    const targetA = await resolveTarget(wrapperDeps(w.wrapper), 'phone-number', a.organizationId, { phoneNumberId: a.phoneNumberId });
    await resolveTarget(wrapperDeps(w.wrapper), 'waba', a.organizationId, { wabaId: a.wabaId });
    expect(callerA.organizationId).toBe(a.organizationId);
    expect(targetA.accessToken).toBe('EAAG-acme');

    const callerB = await w.wrapper.authenticate('upstream-access-token', b.token);
    expect(callerB.organizationId).toBe(b.organizationId);
    // B naming A's (cached) number or account gets the same 404 as any foreign id.
    await expect(resolveTarget(wrapperDeps(w.wrapper), 'phone-number', b.organizationId, { phoneNumberId: a.phoneNumberId })).rejects.toBeInstanceOf(
      UpstreamTargetNotFoundError,
    );
    await expect(resolveTarget(wrapperDeps(w.wrapper), 'waba', b.organizationId, { wabaId: a.wabaId })).rejects.toBeInstanceOf(UpstreamTargetNotFoundError);
    const targetB = await resolveTarget(wrapperDeps(w.wrapper), 'phone-number', b.organizationId, { phoneNumberId: b.phoneNumberId });
    expect(targetB.account.organizationId).toBe(b.organizationId);
    expect(targetB.accessToken).toBe('EAAG-bravo');
  });

  test('a key revoked in this process is refused at once; another container refuses it once its entry expires', async () => {
    const w = world();
    const a = await tenant(w, 'acme', '1001', '9001', 'EAAG-acme');
    await w.wrapper.authenticate('upstream-access-token', a.token);
    await w.otherContainer.authenticate('upstream-access-token', a.token);

    await w.admin.admin.revokeCredential({ organizationId: a.organizationId, credentialId: a.credentialId });

    await expect(w.wrapper.authenticate('upstream-access-token', a.token)).rejects.toBeInstanceOf(InvalidCredentialError);
    // The documented bound (docs/UPSTREAM-WRAPPER.md): at most the credential time to live elsewhere.
    await expect(w.otherContainer.authenticate('upstream-access-token', a.token)).resolves.toMatchObject({ organizationId: a.organizationId });
    w.clock.advanceBy(settings.credentialTtlMs);
    await expect(w.otherContainer.authenticate('upstream-access-token', a.token)).rejects.toBeInstanceOf(InvalidCredentialError);
  });

  test('a rotated Meta token and a flagged account apply at once in this process', async () => {
    const w = world();
    const a = await tenant(w, 'acme', '1001', '9001', 'EAAG-old');
    const first = await resolveTarget(wrapperDeps(w.wrapper), 'waba', a.organizationId, { wabaId: a.wabaId });
    expect(first.accessToken).toBe('EAAG-old');

    await w.admin.admin.connectBusinessAccount({
      organizationId: a.organizationId,
      wabaId: a.wabaId,
      businessId: 'biz',
      name: 'acme',
      accessToken: 'EAAG-new',
    });
    const rotated = await resolveTarget(wrapperDeps(w.wrapper), 'waba', a.organizationId, { wabaId: a.wabaId });
    expect(rotated.accessToken).toBe('EAAG-new');

    await w.admin.markBusinessAccountNeedsAuthorization(rotated.account);
    const flagged = await w.wrapper.repository.getBusinessAccount(a.organizationId, a.wabaId);
    expect(flagged?.status).toBe('needs-authorization');
  });

  test('a number released and claimed by another organization is not served from the cache', async () => {
    const w = world();
    const a = await tenant(w, 'acme', '1001', '9001', 'EAAG-acme');
    const b = await tenant(w, 'bravo', '2002', '9002', 'EAAG-bravo');
    await resolveTarget(wrapperDeps(w.wrapper), 'phone-number', a.organizationId, { phoneNumberId: a.phoneNumberId });

    // The number moves from A to B (the migration path: release, then B claims and records it).
    await w.admin.repository.releaseIdentifier('phone-number-id', a.phoneNumberId, a.organizationId);
    await w.admin.repository.releaseIdentifier('phone-number-digits', `1555000${a.wabaId}`, a.organizationId);
    await w.admin.admin.addPhoneNumber({ organizationId: b.organizationId, wabaId: b.wabaId, digits: `1555000${a.wabaId}`, phoneNumberId: a.phoneNumberId });

    await expect(resolveTarget(wrapperDeps(w.wrapper), 'phone-number', a.organizationId, { phoneNumberId: a.phoneNumberId })).rejects.toBeInstanceOf(
      UpstreamTargetNotFoundError,
    );
    const moved = await resolveTarget(wrapperDeps(w.wrapper), 'phone-number', b.organizationId, { phoneNumberId: a.phoneNumberId });
    expect(moved.account.organizationId).toBe(b.organizationId);
  });

  test('misses are not cached: a credential issued by another container works at once', async () => {
    const w = world();
    const a = await tenant(w, 'acme', '1001', '9001', 'EAAG-acme');
    await w.admin.admin.revokeCredential({ organizationId: a.organizationId, credentialId: a.credentialId });
    await expect(w.wrapper.repository.getBusinessAccount(a.organizationId, 'nope')).resolves.toBeUndefined();
    const issuedElsewhere = await w.otherContainer.admin.issueCredential({ organizationId: a.organizationId, kind: 'upstream-access-token' });
    await expect(w.wrapper.authenticate('upstream-access-token', issuedElsewhere.secret)).resolves.toMatchObject({ organizationId: a.organizationId });
  });

  test('a read under way while its entry is invalidated is returned but not kept', async () => {
    const store = new InMemoryTenancyRepository();
    const clock = fixedClock('2026-01-01T00:00:00.000Z');
    const cache = new TenancyReadCache(settings);
    await store.createOrganization({
      organizationId: 'org_a',
      name: 'a',
      plan: 'starter',
      apiAddOn: false,
      status: 'active',
      createdAt: 'x',
      updatedAt: 'x',
    } as never);
    let release!: () => void;
    const slow: TenancyStores = Object.create(store);
    slow.getOrganization = async (id) => {
      const before = await store.getOrganization(id);
      await new Promise<void>((resolve) => (release = resolve));
      return before;
    };
    const reader = withTenancyReadCache(slow, cache, clock, true);
    const writer = withTenancyReadCache(store, cache, clock, false);

    const pending = reader.getOrganization('org_a');
    await new Promise((resolve) => setImmediate(resolve));
    await writer.updateOrganizationPlan('org_a', { plan: 'enterprise', apiAddOn: true, updatedAt: 'y' });
    release();
    expect((await pending)?.plan).toBe('starter');
    expect(cache.organizations.get('org_a', clock.now().getTime())).toBeUndefined();
    const fresh = withTenancyReadCache(store, cache, clock, true);
    expect((await fresh.getOrganization('org_a'))?.plan).toBe('enterprise');
  });

  test('functions that do not opt in read the store every time', async () => {
    const store = new InMemoryTenancyRepository();
    const { repository, reads } = countingReads(store);
    const plain = withTenancyReadCache(repository, new TenancyReadCache(settings), fixedClock('2026-01-01T00:00:00.000Z'), false);
    await plain.getOrganization('org_x');
    await plain.getOrganization('org_x');
    expect(reads.organization).toBe(2);
  });
});
