import { runPeopleAdminCommand } from '../../../shared/people/people-admin-commands';
import type { PeoplePorts } from '../../../shared/people/manage-people';
import { externalIdentityAccounts } from '../../../shared/people/external-identity-accounts';
import { noOpApiKeyRegistry } from '../../../shared/tenancy/no-op-api-key-registry';
import type { Organization } from '../../../shared/tenancy/tenancy-entities';
import { InMemoryTenancyRepository } from '../../support/in-memory-tenancy-repository';

describe('people admin commands', () => {
  let ports: PeoplePorts;
  let tenancy: InMemoryTenancyRepository;
  beforeEach(async () => {
    tenancy = new InMemoryTenancyRepository();
    await tenancy.createOrganization({
      organizationId: 'org_1',
      name: 'One',
      plan: 'starter',
      apiAddOn: false,
      status: 'active',
      createdAt: '2026-01-01T00:00:00.000Z',
    } as Organization);
    ports = {
      tenancy,
      accounts: externalIdentityAccounts,
      apiKeys: noOpApiKeyRegistry,
      secrets: { generateSecret: (prefix) => `${prefix}${'k'.repeat(43)}` },
      clock: { now: () => new Date('2026-12-02T10:00:00.000Z') },
    };
  });

  test('invite, list, change a role and remove, as the operator', async () => {
    const invited = (await runPeopleAdminCommand(ports, 'invite-person', { org: 'org_1', email: 'ana@example.com', role: 'admin' })) as {
      person: { personId: string };
    };
    await runPeopleAdminCommand(ports, 'invite-person', { org: 'org_1', email: 'bob@example.com', role: 'viewer' });
    const bob = ((await runPeopleAdminCommand(ports, 'list-people', { org: 'org_1' })) as { people: Array<{ personId: string; email: string }> }).people.find(
      (person) => person.email === 'bob@example.com',
    )!;
    expect(await runPeopleAdminCommand(ports, 'set-person-role', { org: 'org_1', person: bob.personId, role: 'campaign-manager' })).toMatchObject({
      role: 'campaign-manager',
    });
    expect(await runPeopleAdminCommand(ports, 'remove-person', { org: 'org_1', person: bob.personId })).toEqual({ personId: bob.personId, removed: true });
    expect((await tenancy.listMembershipRemovals('org_1')).map((removal) => removal.removedBy)).toEqual(['operator:wa-admin']);
    await expect(runPeopleAdminCommand(ports, 'remove-person', { org: 'org_1', person: invited.person.personId })).rejects.toMatchObject({
      code: 'LAST_ADMIN',
    });
  });

  test('names the flag and the rule it breaks; refuses flags it does not know', async () => {
    await expect(runPeopleAdminCommand(ports, 'invite-person', { org: 'org_1', email: 'ana@example.com', role: 'owner' })).rejects.toThrow(/role/);
    await expect(runPeopleAdminCommand(ports, 'invite-person', { org: 'org_1', email: 'ana@example.com' })).rejects.toThrow('--role is required');
    await expect(runPeopleAdminCommand(ports, 'list-people', { org: 'org_1', everything: 'yes' })).rejects.toThrow('--everything');
  });
});
