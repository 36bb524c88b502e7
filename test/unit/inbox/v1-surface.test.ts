/** The v1 surface: plan check at authentication, per-plan limits, stable error codes and envelopes. */
import { routes } from '../../../runtime-contract/all-routes';
import { v1PlanLimits } from '../../../runtime-contract/route-manifest';
import { createContact } from '../../../functions/v1-inbox/create-contact.handler';
import { createConversation } from '../../../functions/v1-inbox/create-conversation.handler';
import { getContact } from '../../../functions/v1-inbox/get-contact.handler';
import { getConversation } from '../../../functions/v1-inbox/get-conversation.handler';
import { listContacts } from '../../../functions/v1-inbox/list-contacts.handler';
import { listConversations } from '../../../functions/v1-inbox/list-conversations.handler';
import { updateConversation } from '../../../functions/v1-inbox/update-conversation.handler';
import { createOptOut } from '../../../functions/v1-inbox/create-opt-out.handler';
import { deleteOptOut } from '../../../functions/v1-inbox/delete-opt-out.handler';
import { listOptOuts } from '../../../functions/v1-inbox/list-opt-outs.handler';
import { createGroupHandler } from '../../../shared/http/create-group-handler';
import type { AuthenticatedCaller, HttpPipelineDependencies } from '../../../shared/http/http-operation';
import { InvalidCredentialError, PlanDoesNotIncludeFeatureError } from '../../../shared/tenancy/errors';
import { v1PlanRequiredMessage } from '../../../shared/tenancy/credential-use-cases';
import { lambdaContext, proxyEventFor } from '../../support/api-gateway-event';
import { createTenancyTestKit } from '../../support/tenancy-test-ports';
import { createInboxTestKit, senderA } from './inbox-test-kit';

describe('v1 keys and plans', () => {
  test('a v1 key works while the plan includes the API and is refused with PlanDoesNotIncludeFeatureError after a downgrade', async () => {
    const kit = createTenancyTestKit();
    const organization = await kit.services.admin.createOrganization({ name: 'Big', plan: 'enterprise' });
    const issued = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'v1-api-key' });
    await expect(kit.services.authenticate('v1-api-key', issued.secret)).resolves.toMatchObject({ plan: 'enterprise', apiAddOn: false });

    await kit.services.admin.setOrganizationPlan({ organizationId: organization.organizationId, plan: 'professional' });
    await expect(kit.services.authenticate('v1-api-key', issued.secret)).rejects.toEqual(new PlanDoesNotIncludeFeatureError(v1PlanRequiredMessage));

    await kit.services.admin.setOrganizationPlan({ organizationId: organization.organizationId, plan: 'professional', apiAddOn: true });
    await expect(kit.services.authenticate('v1-api-key', issued.secret)).resolves.toMatchObject({ plan: 'professional', apiAddOn: true });
  });

  test('other credential kinds of that organization are not affected by the v1 plan check', async () => {
    const kit = createTenancyTestKit();
    const organization = await kit.services.admin.createOrganization({ name: 'Small', plan: 'starter' });
    const token = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'organization-token' });
    await expect(kit.services.authenticate('organization-token', token.secret)).resolves.toMatchObject({ plan: 'starter' });
  });
});

describe('the v1-inbox group through the shared pipeline', () => {
  const v1Routes = routes.filter((route) => route.group === 'v1-inbox');
  const route = (operation: string) => v1Routes.find((candidate) => candidate.operation === operation)!;

  function setup(options: { plan?: 'starter' | 'professional' | 'enterprise'; refuse?: Error; limiterAllows?: boolean } = {}) {
    const inboxKit = createInboxTestKit();
    const consumed: Array<[string, number]> = [];
    const caller: AuthenticatedCaller = {
      organizationId: 'org_a',
      credentialId: 'cred_v1',
      credentialKind: 'v1-api-key',
      plan: options.plan ?? 'starter',
      apiAddOn: true,
    };
    const http: HttpPipelineDependencies = {
      authenticate: async (_kind, secret) => {
        if (options.refuse) throw options.refuse;
        if (secret !== 'wv1_good') throw new InvalidCredentialError();
        return caller;
      },
      rateLimiter: {
        consume: async (bucket, limit) => {
          consumed.push([bucket, limit]);
          return options.limiterAllows === false
            ? { allowed: false, retryAfterSeconds: 17, remaining: 0 }
            : { allowed: true, retryAfterSeconds: 0, remaining: 1 };
        },
      },
      clock: inboxKit.clock,
    };
    const handler = createGroupHandler({
      group: 'v1-inbox',
      routes: v1Routes,
      operations: {
        listContacts,
        createContact,
        getContact,
        listConversations,
        createConversation,
        getConversation,
        updateConversation,
        listOptOuts,
        createOptOut,
        deleteOptOut,
      },
      dependencies: () => ({ ...http, inbox: inboxKit.services }),
    });
    const call = async (
      operation: string,
      init: { body?: unknown; raw?: string; query?: Record<string, string>; pathParameters?: Record<string, string>; headers?: Record<string, string> } = {},
    ) => {
      const result = await handler(
        proxyEventFor(route(operation), {
          headers: init.headers ?? { Authorization: 'Bearer wv1_good', 'Content-Type': 'application/json' },
          body: init.raw ?? (init.body === undefined ? null : JSON.stringify(init.body)),
          query: init.query,
          pathParameters: init.pathParameters,
        }),
        lambdaContext(),
      );
      return { status: result.statusCode, headers: result.headers ?? {}, json: JSON.parse(result.body) as any };
    };
    return { call, consumed, inboxKit };
  }

  test('success envelopes: 201 on create, lists with meta {page, pageSize, total}, single items with meta {page: 1, total: 1}', async () => {
    const { call } = setup();
    const created = await call('createContact', { body: { phoneNumber: '447700900001', name: 'Ada', tags: ['VIP'] } });
    expect(created).toMatchObject({
      status: 201,
      json: {
        success: true,
        data: { id: 'ct_0001', phoneNumber: '447700900001', name: 'Ada', email: null, tags: ['vip'], attributes: {} },
        meta: { page: 1, total: 1 },
      },
    });
    const listed = await call('listContacts', { query: { pageSize: '5' } });
    expect(listed.json).toEqual({ success: true, data: [created.json.data], meta: { page: 1, pageSize: 5, total: 1 } });
    expect((await call('getContact', { pathParameters: { contactId: 'ct_0001' } })).json.data).toEqual(created.json.data);

    const conversation = await call('createConversation', { body: { contactId: 'ct_0001', senderPhoneNumber: senderA } });
    expect(conversation).toMatchObject({
      status: 201,
      json: { data: { id: 'cv_0002', contactId: 'ct_0001', status: 'open', closedAt: null, lastMessageAt: null } },
    });
    expect((await call('createConversation', { body: { contactId: 'ct_0001', senderPhoneNumber: senderA } })).status).toBe(200);
    const closed = await call('updateConversation', { pathParameters: { conversationId: 'cv_0002' }, body: { status: 'closed' } });
    expect(closed.json.data).toMatchObject({ status: 'closed', closedAt: expect.any(String) });
    expect((await call('listConversations', { query: { status: 'closed' } })).json.meta).toEqual({ page: 1, pageSize: 20, total: 1 });
    expect((await call('getConversation', { pathParameters: { conversationId: 'cv_0002' } })).json.data.status).toBe('closed');
  });

  test.each([
    [
      'createContact',
      { body: { phoneNumber: '+44 7700 900001', name: 'Ada' } },
      'phoneNumber must be 8 to 15 digits, country code included (no +, spaces or punctuation)',
    ],
    ['createContact', { body: { phoneNumber: '447700900001' } }, 'name is required'],
    ['createContact', { body: { phoneNumber: '447700900001', name: 'Ada', tag: 'vip' } }, 'tag is not a known field'],
    ['createContact', { body: { phoneNumber: '447700900001', name: 'Ada', email: 'nope' } }, 'email must be an e-mail address'],
    ['listContacts', { query: { pageSize: '101' } }, 'pageSize must be at most 100'],
    ['listContacts', { query: { page: '0' } }, 'page must be a whole number from 1 to 999999'],
    ['listConversations', { query: { status: 'pending' } }, 'status must be open or closed'],
    ['listConversations', { query: { contactId: 'bob' } }, 'contactId must be a contact id (ct_…)'],
    ['createConversation', { body: { contactId: 'ct_1' } }, 'senderPhoneNumber is required'],
    ['updateConversation', { pathParameters: { conversationId: 'cv_1' }, body: { status: 'archived' } }, 'status must be open or closed'],
  ])('400 VALIDATION_FAILED for %s %j', async (operation, init, message) => {
    const { call } = setup();
    expect(await call(operation, init)).toMatchObject({ status: 400, json: { success: false, error: { code: 'VALIDATION_FAILED', message } } });
  });

  test('400 MALFORMED_JSON and UNSUPPORTED_CONTENT_TYPE', async () => {
    const { call } = setup();
    const malformed = await call('createContact', { raw: '{"name": ' });
    expect(malformed.json).toEqual({ success: false, error: { code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' } });
    expect((await call('createContact')).json.error).toEqual({ code: 'VALIDATION_FAILED', message: 'body must be object (received null)' });
    const plain = await call('createContact', { headers: { authorization: 'Bearer wv1_good', 'content-type': 'text/plain' }, body: {} });
    expect(plain.json.error.code).toBe('UNSUPPORTED_CONTENT_TYPE');
  });

  test('401 UNAUTHORIZED, 403 PLAN_REQUIRED, 404 and 409 codes', async () => {
    expect(await setup().call('listContacts', { headers: {} })).toMatchObject({
      status: 401,
      json: { success: false, error: { code: 'UNAUTHORIZED', message: 'Missing or invalid API key' } },
    });
    expect(await setup({ refuse: new PlanDoesNotIncludeFeatureError(v1PlanRequiredMessage) }).call('listContacts')).toMatchObject({
      status: 403,
      json: { success: false, error: { code: 'PLAN_REQUIRED', message: v1PlanRequiredMessage } },
    });
    const { call } = setup();
    expect((await call('getContact', { pathParameters: { contactId: 'ct_9' } })).json.error.code).toBe('CONTACT_NOT_FOUND');
    expect((await call('getContact', { pathParameters: { contactId: '../etc' } })).json.error.code).toBe('CONTACT_NOT_FOUND');
    expect((await call('getConversation', { pathParameters: { conversationId: 'cv_9' } })).json.error.code).toBe('CONVERSATION_NOT_FOUND');
    expect((await call('updateConversation', { pathParameters: { conversationId: 'cv_9' }, body: { status: 'closed' } })).status).toBe(404);
    expect((await call('createConversation', { body: { contactId: 'ct_9', senderPhoneNumber: senderA } })).json.error.code).toBe('CONTACT_NOT_FOUND');
    await call('createContact', { body: { phoneNumber: '447700900001', name: 'Ada' } });
    expect((await call('createConversation', { body: { contactId: 'ct_0001', senderPhoneNumber: '15559999999' } })).json.error.code).toBe('SENDER_NOT_FOUND');
    expect(await call('createContact', { body: { phoneNumber: '447700900001', name: 'Ada again' } })).toMatchObject({
      status: 409,
      json: { success: false, error: { code: 'CONTACT_ALREADY_EXISTS', message: 'A contact with phone number 447700900001 already exists: ct_0001' } },
    });
  });

  test('429 RATE_LIMITED with Retry-After and retryAfterSeconds', async () => {
    const { call } = setup({ limiterAllows: false });
    const limited = await call('listContacts');
    expect(limited.status).toBe(429);
    expect(limited.headers['Retry-After']).toBe('17');
    expect(limited.json).toEqual({
      success: false,
      error: { code: 'RATE_LIMITED', message: expect.stringContaining('60 requests per minute') },
      retryAfterSeconds: 17,
    });
  });

  test.each(Object.entries(v1PlanLimits))('the %s plan is limited to %i requests per minute per key, on every route', async (plan, limit) => {
    const { call, consumed } = setup({ plan: plan as keyof typeof v1PlanLimits });
    await call('listContacts');
    await call('listConversations');
    expect(consumed).toEqual([
      ['v1-plan#cred_v1', limit],
      ['v1-plan#cred_v1', limit],
    ]);
  });
});
