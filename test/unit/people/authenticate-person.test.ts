import { authenticatePerson } from '../../../shared/people/authenticate-person';
import { IdentityProviderUnavailableError, InvalidPersonTokenError, OrganizationChoiceRequiredError } from '../../../shared/people/errors';
import { personIdOf } from '../../../shared/people/person';
import { OrganizationSuspendedError } from '../../../shared/tenancy/errors';
import type { Organization } from '../../../shared/tenancy/tenancy-entities';
import { InMemoryTenancyRepository } from '../../support/in-memory-tenancy-repository';
import { FakePersonTokenVerifier } from '../../support/people/fake-person-token-verifier';

const organization = (organizationId: string, status: Organization['status'] = 'active'): Organization =>
  ({
    organizationId,
    name: organizationId,
    plan: 'starter',
    apiAddOn: false,
    status,
    createdAt: '2026-01-01T00:00:00.000Z',
  }) as Organization;

describe('authenticatePerson', () => {
  let tenancy: InMemoryTenancyRepository;
  let verifier: FakePersonTokenVerifier;
  const joinedAt = '2026-01-02T00:00:00.000Z';

  beforeEach(async () => {
    tenancy = new InMemoryTenancyRepository();
    verifier = new FakePersonTokenVerifier();
    await tenancy.createOrganization(organization('org_a'));
    await tenancy.createOrganization(organization('org_b'));
  });

  test('a member of one organization: the caller is the organization, counted as the person, with their console role', async () => {
    await tenancy.putMembership({ organizationId: 'org_a', email: 'ana@example.com', role: 'member', joinedAt, consoleRole: 'campaign-manager' });
    const caller = await authenticatePerson({ verifier, tenancy }, { token: verifier.issue('Ana@Example.com') });
    const personId = personIdOf('org_a', 'ana@example.com');
    expect(caller).toMatchObject({
      organizationId: 'org_a',
      credentialId: `person:${personId}`,
      credentialKind: 'broadcast-api-key',
      scope: { kind: 'organization' },
      person: { personId, email: 'ana@example.com', role: 'campaign-manager' },
    });
  });

  test('an employee without a console role reads as admin (admin employee) or viewer', async () => {
    await tenancy.putMembership({ organizationId: 'org_a', email: 'boss@example.com', role: 'admin', joinedAt });
    await tenancy.putMembership({ organizationId: 'org_b', email: 'staff@example.com', role: 'member', joinedAt });
    expect((await authenticatePerson({ verifier, tenancy }, { token: verifier.issue('boss@example.com') })).person.role).toBe('admin');
    expect((await authenticatePerson({ verifier, tenancy }, { token: verifier.issue('staff@example.com') })).person.role).toBe('viewer');
  });

  test('a member of several organizations names one; without the header: 400 ORGANIZATION_CHOICE_REQUIRED', async () => {
    await tenancy.putMembership({ organizationId: 'org_a', email: 'ana@example.com', role: 'member', joinedAt, consoleRole: 'viewer' });
    await tenancy.putMembership({ organizationId: 'org_b', email: 'ana@example.com', role: 'member', joinedAt, consoleRole: 'admin' });
    const token = verifier.issue('ana@example.com');
    await expect(authenticatePerson({ verifier, tenancy }, { token })).rejects.toBeInstanceOf(OrganizationChoiceRequiredError);
    const caller = await authenticatePerson({ verifier, tenancy }, { token, organizationId: 'org_b' });
    expect([caller.organizationId, caller.person.role]).toEqual(['org_b', 'admin']);
  });

  test('naming an organization the person is not a member of is refused as an invalid sign-in (no oracle)', async () => {
    await tenancy.putMembership({ organizationId: 'org_a', email: 'ana@example.com', role: 'member', joinedAt });
    const token = verifier.issue('ana@example.com');
    await expect(authenticatePerson({ verifier, tenancy }, { token, organizationId: 'org_b' })).rejects.toBeInstanceOf(InvalidPersonTokenError);
  });

  test("a valid token of nobody's member (or a removed one) is refused", async () => {
    await tenancy.putMembership({ organizationId: 'org_a', email: 'ana@example.com', role: 'member', joinedAt });
    const token = verifier.issue('ana@example.com');
    await authenticatePerson({ verifier, tenancy }, { token });
    await tenancy.removeMembership('org_a', 'ana@example.com', { removedAt: joinedAt, removedBy: 'test' });
    await expect(authenticatePerson({ verifier, tenancy }, { token })).rejects.toBeInstanceOf(InvalidPersonTokenError);
    await expect(authenticatePerson({ verifier, tenancy }, { token: 'forged' })).rejects.toBeInstanceOf(InvalidPersonTokenError);
  });

  test('the organization must be usable, as for keys: suspended is 403, a missing one an invalid sign-in', async () => {
    await tenancy.createOrganization(organization('org_s', 'suspended'));
    await tenancy.putMembership({ organizationId: 'org_s', email: 'ana@example.com', role: 'admin', joinedAt });
    await tenancy.putMembership({ organizationId: 'org_gone', email: 'bob@example.com', role: 'admin', joinedAt });
    await expect(authenticatePerson({ verifier, tenancy }, { token: verifier.issue('ana@example.com') })).rejects.toBeInstanceOf(OrganizationSuspendedError);
    await expect(authenticatePerson({ verifier, tenancy }, { token: verifier.issue('bob@example.com') })).rejects.toBeInstanceOf(InvalidPersonTokenError);
  });

  test('an unreachable issuer is passed on (503, retry)', async () => {
    verifier.unavailable = true;
    await expect(authenticatePerson({ verifier, tenancy }, { token: 'any' })).rejects.toBeInstanceOf(IdentityProviderUnavailableError);
  });
});
