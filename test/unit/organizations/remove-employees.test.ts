import { routes } from '../../../runtime-contract/all-routes';
import { removeEmployeeBulk } from '../../../functions/organization-admin/remove-employee-bulk.handler';
import { createGroupHandler } from '../../../shared/http/create-group-handler';
import type { AuthenticatedCaller, HttpPipelineDependencies } from '../../../shared/http/http-operation';
import { NoEmailAddressesError, NoEmployeesFoundError } from '../../../shared/organizations/errors';
import { bindOrganizationServices, type OrganizationServices } from '../../../shared/organizations/organization-services';
import { maxEmailsPerRequest, removeEmployeesByEmail } from '../../../shared/organizations/remove-employees';
import { InvalidCredentialError, TenancyStoreUnavailableError } from '../../../shared/tenancy/errors';
import { lambdaContext, proxyEventFor } from '../../support/api-gateway-event';
import { createTenancyTestKit, type TenancyTestKit } from '../../support/tenancy-test-ports';
import { InMemoryAuditLog } from '../../support/in-memory-audit-log';

async function organizationsWithEmployees(kit: TenancyTestKit) {
  const acme = await kit.services.admin.createOrganization({ name: 'Acme', plan: 'professional' });
  const other = await kit.services.admin.createOrganization({ name: 'Other', plan: 'starter' });
  for (const email of ['alice@acme.example', 'bob@acme.example', 'carol@acme.example']) {
    await kit.services.admin.addEmployee({ organizationId: acme.organizationId, email, role: 'member' });
  }
  await kit.services.admin.addEmployee({ organizationId: other.organizationId, email: 'carol@acme.example', role: 'admin' });
  const removeMembers = kit.services.removeEmployees;
  return { acme, other, ports: { removeMembers } };
}

describe('removeEmployeesByEmail', () => {
  test('removes every member found and reports the others (partial success), in request order', async () => {
    const kit = createTenancyTestKit();
    const { acme, ports } = await organizationsWithEmployees(kit);
    const result = await removeEmployeesByEmail(ports, {
      organizationId: acme.organizationId,
      emails: ['nobody@acme.example', 'bob@acme.example', 'alice@acme.example'],
      removedBy: 'cred_9',
    });
    expect(result).toEqual({ removedEmails: ['bob@acme.example', 'alice@acme.example'], notFoundEmails: ['nobody@acme.example'] });
    expect((await kit.repository.listMembershipsOfOrganization(acme.organizationId)).map((member) => member.email)).toEqual(['carol@acme.example']);
  });

  test('matches case-insensitively after trimming, and reports duplicates once', async () => {
    const kit = createTenancyTestKit();
    const { acme, ports } = await organizationsWithEmployees(kit);
    const result = await removeEmployeesByEmail(ports, {
      organizationId: acme.organizationId,
      emails: ['  Alice@ACME.example ', 'alice@acme.example', 'GHOST@acme.example', 'ghost@acme.example ', ''],
      removedBy: 'cred_9',
    });
    expect(result).toEqual({ removedEmails: ['alice@acme.example'], notFoundEmails: ['ghost@acme.example'] });
    expect(kit.repository.calls.get('removeMembership')).toBe(2);
  });

  test('revokes membership of this organization only: the user and other memberships stay; an audit record names who asked', async () => {
    const kit = createTenancyTestKit();
    const { acme, other, ports } = await organizationsWithEmployees(kit);
    await removeEmployeesByEmail(ports, { organizationId: acme.organizationId, emails: ['carol@acme.example'], removedBy: 'cred_9' });
    expect(await kit.repository.getUser('carol@acme.example')).toBeDefined();
    expect((await kit.repository.listMembershipsOfUser('carol@acme.example')).map((member) => member.organizationId)).toEqual([other.organizationId]);
    expect(await kit.repository.listMembershipRemovals(acme.organizationId)).toEqual([
      expect.objectContaining({ email: 'carol@acme.example', removedBy: 'cred_9', removedAt: '2025-01-15T10:00:00.000Z', role: 'member' }),
    ]);
  });

  test('a member of another organization only is "not found" here (nothing about other tenants leaks)', async () => {
    const kit = createTenancyTestKit();
    const { other, ports } = await organizationsWithEmployees(kit);
    await expect(removeEmployeesByEmail(ports, { organizationId: other.organizationId, emails: ['alice@acme.example'], removedBy: 'cred_9' })).rejects.toEqual(
      new NoEmployeesFoundError(['alice@acme.example']),
    );
  });

  test('strings that cannot be addresses are reported as not found without a look-up', async () => {
    const kit = createTenancyTestKit();
    const { acme, ports } = await organizationsWithEmployees(kit);
    const result = await removeEmployeesByEmail(ports, {
      organizationId: acme.organizationId,
      emails: ['not-an-address', 'MEMBER#x', 'bob@acme.example'],
      removedBy: 'cred_9',
    });
    expect(result).toEqual({ removedEmails: ['bob@acme.example'], notFoundEmails: ['not-an-address', 'member#x'] });
    expect(kit.repository.calls.get('removeMembership')).toBe(1);
  });

  test('nothing usable → NoEmailAddressesError; nothing removed → NoEmployeesFoundError (a second identical request, too)', async () => {
    const kit = createTenancyTestKit();
    const { acme, ports } = await organizationsWithEmployees(kit);
    const input = { organizationId: acme.organizationId, removedBy: 'cred_9' };
    await expect(removeEmployeesByEmail(ports, { ...input, emails: ['  ', ''] })).rejects.toBeInstanceOf(NoEmailAddressesError);
    await expect(removeEmployeesByEmail(ports, { ...input, emails: ['bob@acme.example'] })).resolves.toMatchObject({ removedEmails: ['bob@acme.example'] });
    await expect(removeEmployeesByEmail(ports, { ...input, emails: ['bob@acme.example'] })).rejects.toBeInstanceOf(NoEmployeesFoundError);
  });
});

describe('POST /v2/organizations/public/remove-employee-bulk (handler and shared pipeline)', () => {
  const route = routes.find((candidate) => candidate.operation === 'removeEmployeeBulk')!;
  const caller: AuthenticatedCaller = { organizationId: 'org_1', credentialId: 'cred_1', credentialKind: 'organization-token' };

  const consumed: Array<[string, number]> = [];
  let limiterAllows = true;
  beforeEach(() => {
    consumed.length = 0;
    limiterAllows = true;
  });

  function setup(organizations: OrganizationServices) {
    const http: HttpPipelineDependencies = {
      authenticate: async (_kind, secret) => {
        if (secret !== 'good-token') throw new InvalidCredentialError();
        return caller;
      },
      rateLimiter: {
        consume: async (bucket, limit) => {
          consumed.push([bucket, limit]);
          return limiterAllows ? { allowed: true, retryAfterSeconds: 0, remaining: 1 } : { allowed: false, retryAfterSeconds: 12, remaining: 0 };
        },
      },
      clock: { now: () => new Date('2026-01-01T00:00:00Z') },
      auditLog: new InMemoryAuditLog(),
    };
    const handler = createGroupHandler({
      group: 'organization-admin',
      routes: [route],
      operations: { removeEmployeeBulk },
      dependencies: () => ({ ...http, organizations }),
    });
    return async (body: string | null, headers: Record<string, string> = { authorization: 'Bearer good-token', 'content-type': 'application/json' }) => {
      const result = await handler(proxyEventFor(route, { headers, body }), lambdaContext());
      return { status: result.statusCode, headers: result.headers, json: JSON.parse(result.body) as unknown };
    };
  }

  const removing = (result = { removedEmails: ['a@x.example'], notFoundEmails: [] as string[] }): OrganizationServices & { calls: unknown[] } => {
    const calls: unknown[] = [];
    return { calls, removeEmployees: async (input) => (calls.push(input), result) };
  };

  const noEmails = { statusCode: 400, status: 'error', message: 'No email IDs provided', data: { error: { message: 'No email IDs provided' } } };

  test('200 with the contract fields; the caller organization and credential are used', async () => {
    const organizations = removing({ removedEmails: ['a@x.example'], notFoundEmails: ['b@x.example'] });
    const response = await setup(organizations)(JSON.stringify({ emails: ['a@x.example', 'b@x.example'] }));
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      statusCode: 200,
      status: 'success',
      message: '1 employee(s) removed; 1 e-mail address(es) matched no employee',
      data: { removedEmails: ['a@x.example'], notFoundEmails: ['b@x.example'] },
    });
    expect(organizations.calls).toEqual([{ organizationId: 'org_1', emails: ['a@x.example', 'b@x.example'], removedBy: 'cred_1' }]);
  });

  test.each([
    ['no body', null],
    ['an empty object', '{}'],
    ['emails not an array', '{"emails":"a@x.example"}'],
    ['an empty list', '{"emails":[]}'],
    ['a non-string entry', '{"emails":["a@x.example",7]}'],
    ['an over-long entry', JSON.stringify({ emails: [`${'a'.repeat(320)}@x.example`] })],
    [`more than ${maxEmailsPerRequest} entries`, JSON.stringify({ emails: Array.from({ length: maxEmailsPerRequest + 1 }, (_, i) => `u${i}@x.example`) })],
    ['malformed JSON', '{"emails": ['],
    ['a JSON array', '["a@x.example"]'],
  ])('400 "No email IDs provided" for %s, and nothing is removed', async (_case, body) => {
    const organizations = removing();
    const response = await setup(organizations)(body);
    expect(response).toMatchObject({ status: 400, json: noEmails });
    expect(organizations.calls).toEqual([]);
  });

  test('400 for a body that is not JSON at all (wrong or missing content type)', async () => {
    const call = setup(removing());
    expect((await call('emails=a', { authorization: 'Bearer good-token', 'content-type': 'text/plain' })).json).toEqual(noEmails);
    expect((await call('{"emails":["a@x.example"]}', { authorization: 'Bearer good-token' })).json).toEqual(noEmails);
  });

  test('400 when every entry is blank (the use case rule), worded the same', async () => {
    const response = await setup(bindOrganizationServices({ removeMembers: async () => ({ removedEmails: [], notFoundEmails: [] }) }))('{"emails":["  "]}');
    expect(response).toMatchObject({ status: 400, json: noEmails });
  });

  test.each([
    ['missing', {}],
    ['not Bearer', { authorization: 'Basic good-token' }],
    ['unknown', { authorization: 'Bearer wot_nope' }],
  ])('401 "Invalid access token" when the token is %s', async (_case, headers) => {
    const response = await setup(removing())('{"emails":["a@x.example"]}', { ...headers, 'content-type': 'application/json' });
    expect(response).toMatchObject({
      status: 401,
      json: { statusCode: 401, status: 'error', message: 'Invalid access token', data: { error: { message: 'Invalid access token' } } },
    });
  });

  test('404 "No users found for the provided emails" when none matched', async () => {
    const response = await setup(bindOrganizationServices({ removeMembers: async (input) => ({ removedEmails: [], notFoundEmails: [...input.emails] }) }))(
      '{"emails":["a@x.example"]}',
    );
    expect(response).toMatchObject({
      status: 404,
      json: {
        statusCode: 404,
        status: 'error',
        message: 'No users found for the provided emails',
        data: { error: { message: 'No users found for the provided emails' } },
      },
    });
  });

  test('500 "Something went wrong while removing employees" with data [] on an unexpected failure, no internals', async () => {
    const response = await setup({ removeEmployees: async () => Promise.reject(new Error('ValidationException: table tenancy-xyz')) })(
      '{"emails":["a@x.example"]}',
    );
    expect(response).toEqual(
      expect.objectContaining({ status: 500, json: { statusCode: 500, status: 'error', message: 'Something went wrong while removing employees', data: [] } }),
    );
  });

  test('30 requests per minute per token; the 429 keeps the organization body with the wait', async () => {
    const call = setup(removing());
    await call('{"emails":["a@x.example"]}');
    expect(consumed).toEqual([['organization-admin#cred_1', 30]]);
    limiterAllows = false;
    const limited = await call('{"emails":["a@x.example"]}');
    expect(limited.status).toBe(429);
    expect(limited.headers?.['Retry-After']).toBe('12');
    expect(limited.json).toEqual({
      statusCode: 429,
      status: 'error',
      message: 'Rate limit of 30 requests per minute exceeded; retry after 12 seconds',
      retryAfterSeconds: 12,
      data: { error: { message: 'Rate limit of 30 requests per minute exceeded; retry after 12 seconds' } },
    });
  });

  test('503 (store timed out, worth a retry) keeps the status but the same contract wording', async () => {
    const response = await setup({ removeEmployees: async () => Promise.reject(new TenancyStoreUnavailableError('timeout')) })('{"emails":["a@x.example"]}');
    expect(response.status).toBe(503);
    expect(response.json).toEqual({ statusCode: 503, status: 'error', message: 'Something went wrong while removing employees', data: [] });
  });
});
