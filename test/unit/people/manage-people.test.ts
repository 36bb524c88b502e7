import { LastAdminError, PeopleManagementOutsideKeyScopeError, PersonExistsError, PersonNotFoundError } from '../../../shared/people/errors';
import { invitePerson, removePerson, setPersonRole, type PeoplePorts } from '../../../shared/people/manage-people';
import { listPeople } from '../../../shared/people/people-directory';
import { personIdOf } from '../../../shared/people/person';
import type { AccountInvitation, IdentityAccounts } from '../../../shared/people/ports';
import type { ApiKeyRegistry, BroadcastKeyRegistration } from '../../../shared/tenancy/api-key-registry';
import type { Organization } from '../../../shared/tenancy/tenancy-entities';
import { InMemoryTenancyRepository } from '../../support/in-memory-tenancy-repository';

class RecordingAccounts implements IdentityAccounts {
  readonly created: string[] = [];
  readonly ended: string[] = [];
  async ensureAccount(email: string): Promise<AccountInvitation> {
    this.created.push(email);
    return { delivery: 'shown-once', temporaryPassword: 'Temp-Pass-1' };
  }
  async endSessions(email: string): Promise<void> {
    this.ended.push(email);
  }
}

class RecordingKeys implements ApiKeyRegistry {
  readonly registered: BroadcastKeyRegistration[] = [];
  readonly removed: string[] = [];
  async registerBroadcastKey(key: BroadcastKeyRegistration) {
    this.registered.push(key);
    return { gatewayApiKeyId: `gw_${this.registered.length}` };
  }
  async removeBroadcastKey(id: string) {
    this.removed.push(id);
  }
}

const organization = {
  organizationId: 'org_1',
  name: 'One',
  plan: 'starter',
  apiAddOn: false,
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
} as Organization;
const orgKey = { organizationId: 'org_1', credentialId: 'cred_org', scope: { kind: 'organization' as const } };

async function setup() {
  const tenancy = new InMemoryTenancyRepository();
  await tenancy.createOrganization(organization);
  const accounts = new RecordingAccounts();
  const apiKeys = new RecordingKeys();
  let n = 0;
  const ports: PeoplePorts = {
    tenancy,
    accounts,
    apiKeys,
    secrets: { generateSecret: (prefix) => `${prefix}${String(++n).padStart(43, 'x')}` },
    clock: { now: () => new Date('2026-12-02T10:00:00.000Z') },
  };
  return { ports, tenancy, accounts, apiKeys };
}

describe('people use cases', () => {
  test('invite: an account, a usage-plan key of their own, then the membership with the role', async () => {
    const { ports, tenancy, accounts, apiKeys } = await setup();
    const { person, invitation } = await invitePerson(ports, orgKey, { email: ' Ana@Example.com ', role: 'campaign-manager' });
    const personId = personIdOf('org_1', 'ana@example.com');
    expect(person).toEqual({ personId, email: 'ana@example.com', role: 'campaign-manager', joinedAt: '2026-12-02T10:00:00.000Z' });
    expect(invitation).toEqual({ delivery: 'shown-once', temporaryPassword: 'Temp-Pass-1' });
    expect(accounts.created).toEqual(['ana@example.com']);
    expect(apiKeys.registered).toEqual([expect.objectContaining({ credentialId: `person:${personId}`, organizationId: 'org_1', origin: 'person' })]);
    expect(await tenancy.getMembership('org_1', 'ana@example.com')).toEqual({
      organizationId: 'org_1',
      email: 'ana@example.com',
      role: 'member',
      joinedAt: '2026-12-02T10:00:00.000Z',
      consoleRole: 'campaign-manager',
      usagePlanKey: { id: 'gw_1', value: apiKeys.registered[0]!.plaintextKey },
    });
  });

  test('inviting a member again answers PERSON_EXISTS and creates nothing', async () => {
    const { ports, accounts, apiKeys } = await setup();
    await invitePerson(ports, orgKey, { email: 'ana@example.com', role: 'viewer' });
    await expect(invitePerson(ports, orgKey, { email: 'ANA@example.com', role: 'admin' })).rejects.toBeInstanceOf(PersonExistsError);
    expect([accounts.created.length, apiKeys.registered.length]).toEqual([1, 1]);
  });

  test('two invitations of one person at the same instant: one stands, the other answers PERSON_EXISTS and its key is deleted', async () => {
    const { ports, tenancy, apiKeys } = await setup();
    const outcomes = await Promise.allSettled([
      invitePerson(ports, orgKey, { email: 'ana@example.com', role: 'viewer' }),
      invitePerson(ports, orgKey, { email: 'ana@example.com', role: 'admin' }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: expect.any(PersonExistsError) });
    const kept = (await tenancy.getMembership('org_1', 'ana@example.com'))!.usagePlanKey!.id;
    expect(apiKeys.registered).toHaveLength(2);
    expect(apiKeys.removed).toEqual(['gw_1', 'gw_2'].filter((id) => id !== kept));
  });

  test('a key bound to one sender may not manage people', async () => {
    const { ports } = await setup();
    const senderKey = { organizationId: 'org_1', credentialId: 'cred_s', scope: { kind: 'sender' as const, phoneNumber: '15550001001' } };
    await expect(invitePerson(ports, senderKey, { email: 'ana@example.com', role: 'viewer' })).rejects.toBeInstanceOf(PeopleManagementOutsideKeyScopeError);
  });

  test('role change; the last admin keeps the role (LAST_ADMIN) until another admin exists', async () => {
    const { ports, tenancy } = await setup();
    const { person: boss } = await invitePerson(ports, orgKey, { email: 'boss@example.com', role: 'admin' });
    const { person: ana } = await invitePerson(ports, orgKey, { email: 'ana@example.com', role: 'viewer' });
    await expect(setPersonRole(ports, orgKey, { personId: boss.personId, role: 'viewer' })).rejects.toBeInstanceOf(LastAdminError);
    expect((await setPersonRole(ports, orgKey, { personId: ana.personId, role: 'admin' })).role).toBe('admin');
    expect((await setPersonRole(ports, orgKey, { personId: boss.personId, role: 'viewer' })).role).toBe('viewer');
    // The usage-plan key stays with the person across role changes.
    expect((await tenancy.getMembership('org_1', 'boss@example.com'))?.usagePlanKey?.id).toBe('gw_1');
    expect((await listPeople(tenancy, 'org_1')).map((person) => [person.email, person.role])).toEqual([
      ['ana@example.com', 'admin'],
      ['boss@example.com', 'viewer'],
    ]);
  });

  test('remove: sessions ended, usage-plan key deleted, membership removed with its audit record', async () => {
    const { ports, tenancy, accounts, apiKeys } = await setup();
    const { person: boss } = await invitePerson(ports, orgKey, { email: 'boss@example.com', role: 'admin' });
    const { person: ana } = await invitePerson(ports, orgKey, { email: 'ana@example.com', role: 'viewer' });
    const admin = { organizationId: 'org_1', credentialId: `person:${boss.personId}`, scope: { kind: 'organization' as const } };
    expect(await removePerson(ports, admin, { personId: ana.personId })).toEqual({ personId: ana.personId, removed: true });
    expect(accounts.ended).toEqual(['ana@example.com']);
    expect(apiKeys.removed).toEqual(['gw_2']);
    expect(await tenancy.getMembership('org_1', 'ana@example.com')).toBeUndefined();
    expect((await tenancy.listMembershipRemovals('org_1')).map((removal) => [removal.email, removal.removedBy])).toEqual([
      ['ana@example.com', `person:${boss.personId}`],
    ]);
    await expect(removePerson(ports, admin, { personId: ana.personId })).rejects.toBeInstanceOf(PersonNotFoundError);
    await expect(removePerson(ports, admin, { personId: boss.personId })).rejects.toBeInstanceOf(LastAdminError);
  });

  test("an id of another organization's person, or no id shape at all, is not found", async () => {
    const { ports, tenancy } = await setup();
    await tenancy.createOrganization({ ...organization, organizationId: 'org_2' });
    const { person } = await invitePerson(ports, { ...orgKey, organizationId: 'org_2' }, { email: 'zoe@example.com', role: 'viewer' });
    await expect(setPersonRole(ports, orgKey, { personId: person.personId, role: 'admin' })).rejects.toBeInstanceOf(PersonNotFoundError);
    await expect(removePerson(ports, orgKey, { personId: '../x' })).rejects.toBeInstanceOf(PersonNotFoundError);
  });
});
