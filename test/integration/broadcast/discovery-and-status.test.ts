/**
 * GET /broadcast/public/phone-numbers, /templates and /status/{jobId} against the local runtime:
 * shapes, the 400/401/404/503 answers, isolation between organizations, the template cache, and
 * a job's states from queued to terminal. Workers are started by the test when it wants a job to
 * move, so the queued state can be observed.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { buildServices, getServices } from '../../../functions/composition';
import { listPhoneNumbers } from '../../../functions/broadcast-discovery/list-phone-numbers.handler';
import { listTemplates } from '../../../functions/broadcast-discovery/list-templates.handler';
import { getJobStatus } from '../../../functions/broadcast-status/get-job-status.handler';
import { listBroadcasts } from '../../../functions/broadcast-status/list-broadcasts.handler';
import { listRecipients } from '../../../functions/broadcast-status/list-recipients.handler';
import { listCampaignRecipients } from '../../../functions/broadcast-status/list-campaign-recipients.handler';
import { routes } from '../../../runtime-contract/all-routes';
import { InMemoryCampaignStore } from '../../support/in-memory-campaign-store';
import { TERMINAL_STATUSES } from '../../../shared/broadcast/broadcast-job';
import { parseAppConfig } from '../../../shared/config/app-config';
import { createGroupHandler } from '../../../shared/http/create-group-handler';
import { adminCommands } from '../../../shared/tenancy/admin-commands';
import { lambdaContext, proxyEventFor } from '../../support/api-gateway-event';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, kitEnvironment, DEMO, issueKey, keyHeader, orderUpdate, readJob, recipients, runWorkersUntilIdle, sleep } from './broadcast-test-kit';

const TEMPLATE_CACHE_TTL_MS = 1_500;

// Sorted by name, as the test sorts the answer; the rich ones (local/demo-rich-templates.ts) keep only type and text of their components.
const demoTemplates = [
  {
    name: 'capped_offer',
    status: 'APPROVED',
    category: 'MARKETING',
    language: 'en',
    components: [{ type: 'BODY', text: 'Hi {{1}}, members save 15% this weekend.' }],
    parameters: { sendable: true, body: { format: 'POSITIONAL', count: 1 } },
    maxPrice: { bidAmount: '0.05', bidStrategy: 'LOWEST_COST_WITH_BID_CAP' },
  },
  {
    name: 'flash_deal',
    status: 'APPROVED',
    category: 'MARKETING',
    language: 'en',
    components: [{ type: 'LIMITED_TIME_OFFER' }, { type: 'BODY', text: '{{1}}, this deal ends soon!' }, { type: 'BUTTONS' }],
    parameters: {
      sendable: true,
      body: { format: 'POSITIONAL', count: 1 },
      buttons: [
        { index: 0, type: 'COPY_CODE', dynamic: true, maxLength: 15 },
        { index: 1, type: 'URL', dynamic: true, maxLength: 1974 },
      ],
      limitedTimeOffer: { hasExpiration: true },
    },
  },
  {
    // A tracked link (docs/OUTCOMES.md "Tracked links"): its URL is the runtime's own redirect, so its room depends on the port.
    name: 'new_arrivals',
    status: 'APPROVED',
    category: 'MARKETING',
    language: 'en',
    components: [{ type: 'BODY', text: 'Hi {{1}}, new arrivals are in: have a look before they go.' }, { type: 'BUTTONS' }],
    parameters: {
      sendable: true,
      body: { format: 'POSITIONAL', count: 1 },
      buttons: [{ index: 0, type: 'URL', dynamic: true, maxLength: expect.any(Number), tracked: true }],
    },
  },
  {
    name: 'order_shipped',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'en_US',
    components: [{ type: 'HEADER' }, { type: 'BODY', text: 'Hi {{1}}, your order {{2}} is on its way.' }, { type: 'BUTTONS' }],
    parameters: {
      sendable: true,
      header: { type: 'IMAGE' },
      body: { format: 'POSITIONAL', count: 2 },
      buttons: [{ index: 0, type: 'URL', dynamic: true, maxLength: 1973 }],
    },
  },
  {
    name: 'order_update',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'en_US',
    components: [
      { type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' },
      { type: 'FOOTER', text: 'Demo Retail' },
    ],
    parameters: { sendable: true, body: { format: 'POSITIONAL', count: 2 } },
  },
  {
    name: 'spring_carousel',
    status: 'APPROVED',
    category: 'MARKETING',
    language: 'en',
    components: [{ type: 'BODY', text: 'Our picks for you, {{1}}' }, { type: 'CAROUSEL' }],
    parameters: {
      sendable: true,
      body: { format: 'POSITIONAL', count: 1 },
      carousel: {
        cards: 2,
        header: { type: 'IMAGE' },
        body: { format: 'POSITIONAL', count: 1 },
        buttons: [{ index: 0, type: 'URL', dynamic: true, maxLength: 1977 }],
      },
    },
  },
  {
    name: 'spring_sale',
    status: 'APPROVED',
    category: 'MARKETING',
    language: 'en',
    components: [{ type: 'BODY', text: 'Hi {{1}}, our spring sale starts today: 20% off everything in store and online.' }],
    parameters: { sendable: true, body: { format: 'POSITIONAL', count: 1 } },
  },
  {
    name: 'summer_coupon',
    status: 'APPROVED',
    category: 'MARKETING',
    language: 'en',
    components: [{ type: 'HEADER', text: 'Hello {{1}}' }, { type: 'BODY', text: 'Use the code below for 20% off this summer.' }, { type: 'BUTTONS' }],
    parameters: {
      sendable: true,
      header: { type: 'TEXT', dynamic: true, maxLength: 54 },
      body: { format: 'POSITIONAL', count: 0 },
      buttons: [
        { index: 0, type: 'COPY_CODE', dynamic: true, maxLength: 20 },
        { index: 1, type: 'QUICK_REPLY', dynamic: false },
      ],
    },
  },
  {
    name: 'welcome_message',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'en_US',
    components: [{ type: 'BODY', text: 'Welcome to Demo Retail! We will keep you posted about your orders here.' }],
    parameters: { sendable: true, body: { format: 'POSITIONAL', count: 0 } },
  },
  {
    name: 'welcome_named',
    status: 'APPROVED',
    category: 'UTILITY',
    language: 'en_US',
    components: [{ type: 'BODY', text: 'Hi {{first_name}}, welcome to {{store}}!' }],
    parameters: { sendable: true, body: { format: 'NAMED', names: ['first_name', 'store'] } },
  },
];

const byName = <T extends { name: string }>(items: T[]) => [...items].sort((a, b) => a.name.localeCompare(b.name));

describe('discovery and job status', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let otherOrg: TestRuntime['demo']['otherOrg'];

  beforeAll(async () => {
    runtime = await startTestRuntime({ startWorkers: false, environment: { ...kitEnvironment, TEMPLATE_CACHE_TTL_MS: String(TEMPLATE_CACHE_TTL_MS) } });
    organizationId = runtime.demo.organizationId;
    otherOrg = runtime.demo.otherOrg;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const get = (path: string, apiKey?: string) => runtime.call('GET', `${BASE}${path}`, { headers: apiKey === undefined ? {} : keyHeader(apiKey) });
  const tenancy = () => getServices().tenancy;
  const createOrganization = async (name: string) =>
    (await adminCommands['create-organization'].run(tenancy(), { name, plan: 'enterprise' })).organizationId as string;
  const connectAccount = (org: string, wabaId: string) =>
    adminCommands['connect-business-account'].run(tenancy(), {
      org,
      'waba-id': wabaId,
      'business-id': `${wabaId}0`,
      name: `Account ${wabaId}`,
      'access-token': `token-${wabaId}`,
    });
  const addNumber = (org: string, wabaId: string, phoneNumber: string, phoneNumberId: string) =>
    adminCommands['add-phone-number'].run(tenancy(), { org, 'waba-id': wabaId, 'phone-number': phoneNumber, 'phone-number-id': phoneNumberId });

  describe('GET /phone-numbers', () => {
    it("lists the organization's connected senders with phone_number, waba_id and phone_number_id", async () => {
      const response = await get('/phone-numbers', runtime.demo.apiKey);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: true, status_code: 200, message: expect.any(String) });
      expect([...response.body.data].sort((a, b) => a.phone_number.localeCompare(b.phone_number))).toEqual([
        { phone_number: DEMO.sender1, waba_id: DEMO.wabaId, phone_number_id: DEMO.phoneNumberId1 },
        { phone_number: DEMO.sender2, waba_id: DEMO.wabaId, phone_number_id: DEMO.phoneNumberId2 },
      ]);
    });

    it('shows each organization only its own senders, and a bound key only its number', async () => {
      const other = await get('/phone-numbers', otherOrg.apiKey);
      expect(other.status).toBe(200);
      expect(other.body.data).toEqual([{ phone_number: otherOrg.phoneNumber, waba_id: otherOrg.wabaId, phone_number_id: otherOrg.phoneNumberId }]);

      const bound = await issueKey(organizationId, DEMO.sender2);
      const boundList = await get('/phone-numbers', bound.secret);
      expect(boundList.body.data).toEqual([{ phone_number: DEMO.sender2, waba_id: DEMO.wabaId, phone_number_id: DEMO.phoneNumberId2 }]);
      // The bound key cannot read the templates of the organization's other number.
      const elsewhere = await get(`/templates?phone_number=${DEMO.sender1}`, bound.secret);
      expect(elsewhere.status).toBe(401);
      expect(elsewhere.body.data.error.code).toBe('SENDER_NOT_OWNED');
    });

    it('answers an empty list when the business account has no connected number', async () => {
      const org = await createOrganization('No Numbers Yet');
      await connectAccount(org, '110000000000070');
      const key = await issueKey(org);
      const response = await get('/phone-numbers', key.secret);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: true, status_code: 200, data: [] });
    });

    it('answers 401 when no business account is connected', async () => {
      const key = await issueKey(await createOrganization('Not Connected'));
      const response = await get('/phone-numbers', key.secret);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ status: false, status_code: 401, data: { error: { code: 'NO_BUSINESS_ACCOUNT' } } });
      expect(response.body.message).toMatch(/No business account is connected/);
    });
  });

  describe('missing, invalid or revoked keys (gateway response, before any Lambda)', () => {
    const gatewayUnauthorized = { status: false, status_code: 401, message: 'Missing or invalid API key', data: {} };
    const revokedKey = async () => {
      const key = await issueKey(organizationId);
      await adminCommands['revoke-credential'].run(tenancy(), { org: organizationId, 'credential-id': key.credentialId });
      return key.secret;
    };

    it.each([
      ['GET', '/phone-numbers'],
      ['GET', `/templates?phone_number=${DEMO.sender1}`],
      ['GET', '/status/pub_anything'],
      ['POST', '/send-template-broadcast'],
    ])('%s %s: 401 without a key, with an unknown key and with a revoked key', async (method, path) => {
      const revoked = await revokedKey();
      for (const headers of [{}, keyHeader('bk_live_not-a-real-key'), keyHeader(`${runtime.demo.apiKey.slice(0, -4)}AAAA`), keyHeader(revoked)]) {
        const response = await runtime.call(method, `${BASE}${path}`, {
          headers,
          ...(method === 'POST' ? { body: orderUpdate(recipients(1, { first: 9_700_000_000 })) } : {}),
        });
        expect(response.status).toBe(401);
        expect(response.body).toMatchObject(gatewayUnauthorized);
      }
    });
  });

  describe('GET /templates', () => {
    it("lists the sender's APPROVED templates with name, status, category, language and components (type, text)", async () => {
      for (const sender of [DEMO.sender1, DEMO.sender2]) {
        const response = await get(`/templates?phone_number=${sender}`, runtime.demo.apiKey);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ status: true, status_code: 200, message: expect.any(String) });
        // holiday_offer is PENDING: not listed. Nothing beyond the contract's fields, `parameters` (what a send needs)
        // and `quality` (Meta's quality score; new templates start UNKNOWN: issue 25).
        expect(byName(response.body.data)).toEqual(demoTemplates.map((template) => ({ ...template, quality: 'UNKNOWN' })));
      }
      const other = await get(`/templates?phone_number=${otherOrg.phoneNumber}`, otherOrg.apiKey);
      expect(other.body.data.map((template: { name: string }) => template.name)).toEqual(['appointment_reminder']);
    });

    it("lists every status with status=all (the console's templates screen), and refuses another status word", async () => {
      const all = await get(`/templates?phone_number=${DEMO.sender1}&status=all`, runtime.demo.apiKey);
      expect(all.status).toBe(200);
      const names = (all.body.data as Array<{ name: string; status: string }>).map((template) => `${template.name}:${template.status}`);
      expect(names).toContain('holiday_offer:PENDING');
      expect(names.length).toBe(demoTemplates.length + 1);
      const bad = await get(`/templates?phone_number=${DEMO.sender1}&status=rejected`, runtime.demo.apiKey);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/status must be approved or all/);
    });

    it.each([
      ['missing', '', /^phone_number is required/],
      ['with a +', `?phone_number=%2B${DEMO.sender1}`, /^phone_number must contain digits only/],
      ['with letters', '?phone_number=1555abc0001', /^phone_number must contain digits only/],
      ['too short', '?phone_number=12345', /^phone_number must have at least 6 digits/],
    ])('answers 400 when phone_number is %s', async (_label, query, message) => {
      const key = await issueKey(organizationId);
      const response = await get(`/templates${query}`, key.secret);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: false, status_code: 400, data: { error: { code: 'VALIDATION_FAILED' } } });
      expect(response.body.message).toMatch(message);
    });

    it("answers 401 for another organization's number and for a number nobody owns", async () => {
      for (const number of [otherOrg.phoneNumber, '15559999999']) {
        const response = await get(`/templates?phone_number=${number}`, runtime.demo.apiKey);
        expect(response.status).toBe(401);
        expect(response.body.data.error.code).toBe('SENDER_NOT_OWNED');
        expect(response.body.message).toContain(number);
      }
    });

    it('answers 401 naming the missing fields when the business account configuration is incomplete', async () => {
      const org = await createOrganization('Half Configured');
      await connectAccount(org, '110000000000080');
      await connectAccount(org, '110000000000081');
      await addNumber(org, '110000000000080', '15550800001', '120000000000080');
      await addNumber(org, '110000000000081', '15550810001', '120000000000081');
      const repository = tenancy().repository;
      // One account lost its token; the other was flagged after the upstream API refused its token.
      const withoutToken = (await repository.getBusinessAccount(org, '110000000000080'))!;
      await repository.putBusinessAccount({ ...withoutToken, encryptedAccessToken: '' });
      await tenancy().markBusinessAccountNeedsAuthorization((await repository.getBusinessAccount(org, '110000000000081'))!);
      const key = await issueKey(org);

      const missingToken = await get('/templates?phone_number=15550800001', key.secret);
      expect(missingToken.status).toBe(401);
      expect(missingToken.body.data.error.code).toBe('BUSINESS_ACCOUNT_INCOMPLETE');
      expect(missingToken.body.message).toBe('Business account configuration is incomplete: missing accessToken');

      const needsAuthorization = await get('/templates?phone_number=15550810001', key.secret);
      expect(needsAuthorization.status).toBe(401);
      expect(needsAuthorization.body.message).toMatch(/incomplete: missing .*accessToken \(needs re-authorization\)/);

      // A broadcast from such a sender is refused the same way, before anything is queued.
      const send = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
        headers: keyHeader(key.secret),
        body: orderUpdate(recipients(1, { first: 9_700_000_100 }), { fromPhoneNumber: '15550800001' }),
      });
      expect(send.status).toBe(401);
      expect(send.body.message).toMatch(/missing accessToken/);
    });

    it(`caches the template list briefly (${TEMPLATE_CACHE_TTL_MS} ms here): a review shows after the cache expires`, async () => {
      const key = await issueKey(organizationId);
      const names = async () =>
        ((await get(`/templates?phone_number=${DEMO.sender1}`, key.secret)).body.data as Array<{ name: string }>).map((template) => template.name);
      await sleep(TEMPLATE_CACHE_TTL_MS + 100);
      expect(await names()).toContain('spring_sale');
      runtime.sandbox!.setTemplateStatus(DEMO.templateIds.spring_sale, 'PAUSED');
      try {
        // Still served from the cache...
        expect(await names()).toContain('spring_sale');
        // ...and gone once it expired.
        await sleep(TEMPLATE_CACHE_TTL_MS + 100);
        expect(await names()).not.toContain('spring_sale');
      } finally {
        runtime.sandbox!.setTemplateStatus(DEMO.templateIds.spring_sale, 'APPROVED');
      }
    });
  });

  describe('GET /status/{jobId}', () => {
    it('follows a job from QUEUED_FOR_PROCESSING through PROCESSING to COMPLETED, with the contract fields and a summary', async () => {
      runtime.sandbox!.reset();
      const key = (await issueKey(organizationId)).secret;
      const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
        headers: keyHeader(key),
        body: orderUpdate(recipients(1_001, { first: 9_710_000_000 })),
      });
      expect(accepted.status).toBe(202);
      const { jobId } = accepted.body.data;

      const queued = await get(`/status/${jobId}`, key);
      expect(queued.status).toBe(200);
      expect(queued.body).toMatchObject({ status: true, status_code: 200, message: expect.stringContaining('QUEUED_FOR_PROCESSING') });
      expect(queued.body.data).toEqual({
        jobId,
        status: 'QUEUED_FOR_PROCESSING',
        totalRecipients: 1_001,
        totalChunks: 2,
        summary: { sent: 0, failed: 0, unknown: 0, pending: 1_001, chunksDone: 0, chunksTotal: 2, failuresByReason: {}, delivered: 0, read: 0, unconfirmed: 0 },
        route: 'cloud_api',
      });

      // Watch the states while the workers run (through the use case: polling HTTP would spend the status rate limit).
      const seen: string[] = [queued.body.data.status];
      const watcher = (async () => {
        for (const deadline = Date.now() + 40_000; Date.now() < deadline; await sleep(100)) {
          const { status } = await readJob(organizationId, jobId);
          if (seen[seen.length - 1] !== status) seen.push(status);
          if (TERMINAL_STATUSES.has(status)) return;
        }
      })();
      await runWorkersUntilIdle(runtime);
      await watcher;
      expect(seen).toEqual(['QUEUED_FOR_PROCESSING', 'PROCESSING', 'COMPLETED']);

      const done = await get(`/status/${jobId}`, key);
      expect(done.status).toBe(200);
      expect(done.body.message).toContain('COMPLETED');
      expect(done.body.data).toEqual({
        jobId,
        status: 'COMPLETED',
        totalRecipients: 1_001,
        totalChunks: 2,
        // delivered and read follow the sandbox's webhooks, whose timing this test does not control.
        summary: {
          sent: 1_001,
          failed: 0,
          unknown: 0,
          pending: 0,
          chunksDone: 2,
          chunksTotal: 2,
          failuresByReason: {},
          delivered: expect.any(Number),
          read: expect.any(Number),
          unconfirmed: 0,
        },
        route: 'cloud_api',
      });
      expect(runtime.sandbox!.acceptedMessages()).toHaveLength(1_001);

      // Isolation: the other organization cannot read it (401), and learns nothing about it.
      const foreign = await get(`/status/${jobId}`, otherOrg.apiKey);
      expect(foreign.status).toBe(401);
      expect(foreign.body).toMatchObject({ status: false, status_code: 401, message: 'This job belongs to another organization' });
      expect(foreign.body.data).toEqual({ error: { code: 'UNAUTHORIZED', message: 'This job belongs to another organization' } });
    }, 60_000);

    it.each([['pub_doesNotExist0000000'], ['not-a-job-id']])('answers 404 for an unknown job (%s)', async (jobId) => {
      const response = await get(`/status/${jobId}`, runtime.demo.apiKey);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ status: false, status_code: 404, data: { error: { code: 'JOB_NOT_FOUND' } } });
      expect(response.body.message).toContain(jobId);
    });
  });

  describe('503 when the authentication store times out', () => {
    const tenancyReadsTimeOut = 'test-tenancy-reads-time-out';
    afterEach(() => {
      getServices().clients.dynamoDbBase.middlewareStack.remove(tenancyReadsTimeOut);
    });

    it('end to end: a tenancy store that times out answers 503 AUTH_STORE_UNAVAILABLE, not 401', async () => {
      const tenancyTable = getServices().config.tableNames.tenancy;
      // Every request to the tenancy table fails as the SDK does when its request timeout elapses.
      getServices().clients.dynamoDbBase.middlewareStack.add(
        (next, context) => async (args) => {
          if ((args.input as { TableName?: string }).TableName === tenancyTable) {
            await sleep(50);
            throw Object.assign(new Error(`${context.commandName} exceeded the configured requestTimeout`), { name: 'TimeoutError' });
          }
          return next(args);
        },
        { step: 'initialize', name: tenancyReadsTimeOut },
      );
      for (const path of ['/phone-numbers', `/templates?phone_number=${DEMO.sender1}`, '/status/pub_anything']) {
        const response = await get(path, runtime.demo.apiKey);
        expect(response.status).toBe(503);
        expect(response.body).toMatchObject({ status: false, status_code: 503, data: { error: { code: 'AUTH_STORE_UNAVAILABLE' } } });
        expect(response.body.message).toMatch(/Authentication storage timed out/);
      }
    });

    describe('handler level, with a DynamoDB endpoint that accepts connections and never answers', () => {
      let blackhole: Server;
      const sockets = new Set<Socket>();
      beforeAll(async () => {
        blackhole = createServer((socket) => {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
        });
        await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', () => resolve()));
      });
      afterAll(async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => blackhole.close(() => resolve()));
      });

      it('answers 503 for phone-numbers and status once the SDK request timeout elapses', async () => {
        const { port } = blackhole.address() as { port: number };
        const services = buildServices(parseAppConfig({ ...process.env, DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}` }));
        try {
          const discovery = createGroupHandler({
            group: 'broadcast-discovery',
            operations: { listPhoneNumbers, listTemplates },
            dependencies: () => ({ ...services.http, senders: services.broadcast.senders, templates: services.broadcast.templates }),
          });
          const status = createGroupHandler({
            group: 'broadcast-status',
            operations: { getJobStatus, listRecipients, listBroadcasts, listCampaignRecipients },
            // The group's campaign route is not called here: its store stays in memory.
            dependencies: () => ({
              ...services.http,
              broadcasts: services.broadcast.broadcasts,
              campaigns: new InMemoryCampaignStore(),
              unconfirmedAfterMs: 86_400_000,
            }),
          });
          const route = (operation: string) => routes.find((candidate) => candidate.operation === operation)!;
          const headers = keyHeader(runtime.demo.apiKey);
          const answers: APIGatewayProxyResult[] = await Promise.all([
            discovery(proxyEventFor(route('listPhoneNumbers'), { headers }), lambdaContext()),
            status(proxyEventFor(route('getJobStatus'), { headers, pathParameters: { jobId: 'pub_anything' } }), lambdaContext()),
          ]);
          for (const answer of answers) {
            expect(answer.statusCode).toBe(503);
            const body = JSON.parse(answer.body);
            expect(body).toMatchObject({ status: false, status_code: 503, data: { error: { code: 'AUTH_STORE_UNAVAILABLE' } } });
          }
        } finally {
          services.destroy();
        }
      }, 30_000);
    });
  });
});
