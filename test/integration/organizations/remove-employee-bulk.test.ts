/** POST /v2/organizations/public/remove-employee-bulk through the local runtime: every answer of the contract's table. */
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

const PATH = '/v2/organizations/public/remove-employee-bulk';

const errorBody = (statusCode: number, message: string) => ({ statusCode, status: 'error', message, data: { error: { message } } });

describe('remove-employee-bulk', () => {
  let runtime: TestRuntime;
  /** `token: null` sends no Authorization header. */
  const remove = (body: unknown, token: string | null = runtime.demo.orgToken, rawBody?: string) =>
    runtime.call('POST', PATH, { headers: token === null ? {} : { authorization: `Bearer ${token}` }, body, rawBody });
  const tenancy = () => getServices().tenancy;
  const membersOf = async (organizationId: string) =>
    (await tenancy().repository.listMembershipsOfOrganization(organizationId)).map((member) => member.email).sort();
  const addEmployees = async (organizationId: string, emails: string[]) => {
    for (const email of emails) await tenancy().admin.addEmployee({ organizationId, email, role: 'member' });
  };

  beforeAll(async () => {
    runtime = await startTestRuntime();
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it('200: removes every employee found, reports the others, and keeps the rest (partial success)', async () => {
    await addEmployees(runtime.demo.organizationId, ['erin@demo-retail.example', 'frank@demo-retail.example']);
    const response = await remove({ emails: ['erin@demo-retail.example', 'nobody@demo-retail.example'] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      statusCode: 200,
      status: 'success',
      message: '1 employee(s) removed; 1 e-mail address(es) matched no employee',
      data: { removedEmails: ['erin@demo-retail.example'], notFoundEmails: ['nobody@demo-retail.example'] },
    });
    const members = await membersOf(runtime.demo.organizationId);
    expect(members).toContain('frank@demo-retail.example');
    expect(members).not.toContain('erin@demo-retail.example');

    const all = await remove({ emails: ['frank@demo-retail.example'] });
    expect(all.body).toEqual({
      statusCode: 200,
      status: 'success',
      message: 'Employees removed successfully',
      data: { removedEmails: ['frank@demo-retail.example'], notFoundEmails: [] },
    });
  });

  it('matches e-mails case-insensitively after trimming and reports duplicates once', async () => {
    await addEmployees(runtime.demo.organizationId, ['grace@demo-retail.example']);
    const response = await remove({
      emails: ['  Grace@DEMO-Retail.example ', 'grace@demo-retail.example', 'GHOST@demo-retail.example', 'ghost@demo-retail.example'],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ removedEmails: ['grace@demo-retail.example'], notFoundEmails: ['ghost@demo-retail.example'] });
  });

  it('revokes membership of this organization only: carol stays a member of the other organization and the user remains', async () => {
    const carol = 'carol@demo-retail.example';
    expect(await membersOf(runtime.demo.otherOrg.organizationId)).toContain(carol);
    const response = await remove({ emails: [carol] });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ removedEmails: [carol], notFoundEmails: [] });

    expect(await membersOf(runtime.demo.organizationId)).not.toContain(carol);
    expect(await membersOf(runtime.demo.otherOrg.organizationId)).toContain(carol);
    expect(await tenancy().repository.getUser(carol)).toMatchObject({ email: carol });
    // The removal is recorded for audit, naming the organization token that asked.
    const token = await tenancy().authenticate('organization-token', runtime.demo.orgToken);
    expect(await tenancy().repository.listMembershipRemovals(runtime.demo.organizationId)).toContainEqual(
      expect.objectContaining({ email: carol, removedBy: token.credentialId }),
    );
    // Asking again: carol is no longer a member here.
    expect(await remove({ emails: [carol] })).toMatchObject({ status: 404, body: errorBody(404, 'No users found for the provided emails') });
  });

  it('404 "No users found for the provided emails" when none matched, also for a member of another organization only', async () => {
    await addEmployees(runtime.demo.otherOrg.organizationId, ['dave@other.example']);
    const response = await remove({ emails: ['dave@other.example', 'nobody@demo-retail.example'] });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorBody(404, 'No users found for the provided emails'));
    expect(await membersOf(runtime.demo.otherOrg.organizationId)).toContain('dave@other.example');
  });

  it.each([
    ['emails missing', {}, undefined],
    ['emails not a list', { emails: 'alice@demo-retail.example' }, undefined],
    ['an empty list', { emails: [] }, undefined],
    ['a non-string entry', { emails: ['alice@demo-retail.example', 42] }, undefined],
    ['only blank entries', { emails: ['', '  '] }, undefined],
    ['more than 500 entries', { emails: Array.from({ length: 501 }, (_, index) => `user${index}@demo-retail.example`) }, undefined],
    ['malformed JSON', undefined, '{"emails": ['],
  ])('400 "No email IDs provided" for %s, and nobody is removed', async (_case, body, rawBody) => {
    const before = await membersOf(runtime.demo.organizationId);
    const response = await remove(body, runtime.demo.orgToken, rawBody);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorBody(400, 'No email IDs provided'));
    expect(await membersOf(runtime.demo.organizationId)).toEqual(before);
  });

  it.each([
    ['missing', null],
    ['unknown', 'wot_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['of another kind (a v1 key)', 'v1'],
    ['of another kind (a broadcast key)', 'broadcast'],
  ])('401 "Invalid access token" when the token is %s', async (_case, token: string | null) => {
    const secret = token === 'v1' ? runtime.demo.v1ApiKey : token === 'broadcast' ? runtime.demo.apiKey : token;
    const response = await remove({ emails: ['alice@demo-retail.example'] }, secret);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(errorBody(401, 'Invalid access token'));
    expect(await membersOf(runtime.demo.organizationId)).toContain('alice@demo-retail.example');
  });

  it('the other organization’s token removes from the other organization only', async () => {
    const response = await remove({ emails: ['alice@demo-retail.example'] }, runtime.demo.otherOrg.orgToken);
    expect(response).toMatchObject({ status: 404, body: errorBody(404, 'No users found for the provided emails') });
    expect(await membersOf(runtime.demo.organizationId)).toContain('alice@demo-retail.example');
  });

  it('500 "Something went wrong while removing employees" with data [] on an unexpected failure', async () => {
    // The function composes its own repository; the DynamoDB client under it is the process's pooled
    // one, so the fault goes there: one DeleteItem on the tenancy table fails as no retry can mend.
    const services = getServices();
    const stack = services.clients.dynamoDbBase.middlewareStack;
    let armed = true;
    stack.add(
      (next, context) => async (args) => {
        if (armed && context.commandName === 'DeleteItemCommand' && (args.input as { TableName?: string }).TableName === services.config.tableNames.tenancy) {
          armed = false;
          throw new DynamoDBServiceException({ name: 'ValidationException', $fault: 'client', message: 'internal detail', $metadata: { httpStatusCode: 400 } });
        }
        return next(args);
      },
      { step: 'initialize', name: 'removeMembershipFault', override: true },
    );
    try {
      const response = await remove({ emails: ['alice@demo-retail.example'] });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ statusCode: 500, status: 'error', message: 'Something went wrong while removing employees', data: [] });
      expect(JSON.stringify(response.body)).not.toContain('internal detail');
    } finally {
      stack.remove('removeMembershipFault');
    }
    expect(await membersOf(runtime.demo.organizationId)).toContain('alice@demo-retail.example');
  });
});
