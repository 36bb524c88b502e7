/**
 * The earlier send-single, send-bulk and send-bulk-standard operations through the local gateway,
 * the handler, the wallet, the queue, the chunk worker and the Cloud API sandbox
 * (docs/FREEFORM-AND-EARLIER.md):
 *
 * - every error text of the contract's table, with its status and the failure body, charging nothing;
 * - the nested answer with the exact cost summary (demo pricing; price from the template's real category);
 * - partial failures of a bulk send: counted, not charged, stored in the ledger with their failure_reason_code;
 * - send-bulk-standard is send-bulk (same answer, same campaign names);
 * - the wallet under concurrent sends: never overdrawn, exactly N of 2N succeed;
 * - retries with backoff on 130429, 80007 and HTTP 429: one message in the end.
 *
 * The earlier operations allow 60 requests a minute per key, so tests use fresh keys.
 */
import { getServices } from '../../../functions/composition';
import type { AcceptedMessage } from '../../../sandbox/cloud-api-sandbox';
import { chunkProgressOf } from '../../support/chunk-progress';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { DEMO, issueKey, jobCount, keyHeader, kitEnvironment, latestJobId, ledgerOf, metaTemplateBody } from '../broadcast/broadcast-test-kit';
import { WRITTEN_NUMBER_FORM_RULE } from '../../../shared/recipients/phone-rule';
import { PRICE_MICROS, expectFailureBody, provisionOrganization, units, walletMicros, PUBLIC_PATH } from './earlier-operations-kit';

type Body = Record<string, unknown>;

/** Waits below (eventually, minute headroom) outlast jest's 5 s default. */
jest.setTimeout(30_000);

describe('earlier operations: send-single, send-bulk, send-bulk-standard', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let nextNumber = 9_700_000_000;
  const localNumber = () => String(nextNumber++);

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const post = (path: string, apiKey: string | undefined, body: unknown) =>
    runtime.call('POST', `${PUBLIC_PATH}${path}`, { headers: apiKey === undefined ? {} : keyHeader(apiKey), body });
  const freshKey = async (org = organizationId, boundPhoneNumber?: string) => (await issueKey(org, boundPhoneNumber)).secret;
  const singleBody = (overrides: Body = {}): Body => ({
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    countryCode: '91',
    toPhoneNumber: localNumber(),
    templateParams: ['Ada', 'A-17'],
    ...overrides,
  });
  const bulkBody = (broadcastName: string, data: Body[], overrides: Body = {}): Body => ({
    broadcastName,
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    globalTemplateParams: ['Customer', 'ORD-1'],
    data,
    ...overrides,
  });
  const acceptedTo = (to: string): AcceptedMessage[] => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient === to);
  const nestedAnswer = (message: string, summary: Body) => ({ status: true, status_code: 200, message, data: { status: true, message, data: summary } });

  describe('every error text of the contract, with its status; nothing charged, nothing queued', () => {
    interface ErrorCase {
      name: string;
      path: '/send-single' | '/send-bulk';
      message: string;
      /** What the error object carries besides code and message. */
      details?: Record<string, string>;
      /** Key and body of the request, and the organization whose wallet and jobs must not change. */
      request: () => Promise<{ apiKey: string | undefined; body: Body; org: string }>;
    }
    const demo = async (body: Body) => ({ apiKey: await freshKey(), body, org: organizationId });
    const cases: ErrorCase[] = [
      {
        name: 'unknown key',
        path: '/send-single',
        message: 'User is not signed up yet',
        request: async () => ({ apiKey: 'bk_not-a-key-anyone-issued', body: singleBody(), org: organizationId }),
      },
      {
        name: 'no key at all (send-bulk)',
        path: '/send-bulk',
        message: 'User is not signed up yet',
        request: async () => ({ apiKey: undefined, body: bulkBody('no key', [{ countryCode: '91', toPhoneNumber: localNumber() }]), org: organizationId }),
      },
      {
        name: 'a key of an organization with a subscription but no connected number',
        path: '/send-single',
        message: 'User is not signed up yet',
        request: async () => {
          const org = await provisionOrganization(runtime, { name: 'No Number', walletMicros: 1_000_000, businessAccount: false });
          return { apiKey: org.apiKey, body: singleBody(), org: org.organizationId };
        },
      },
      {
        name: 'no active subscription',
        path: '/send-single',
        message: 'No subscriptions available',
        request: async () => {
          const org = await provisionOrganization(runtime, { name: 'No Subscription', walletMicros: 1_000_000, subscription: false });
          return { apiKey: org.apiKey, body: singleBody(), org: org.organizationId };
        },
      },
      {
        name: 'wallet below the price of one message',
        path: '/send-single',
        message: 'Insufficient credits',
        request: async () => {
          const org = await provisionOrganization(runtime, { name: 'Thin Wallet', walletMicros: PRICE_MICROS.utility['91'] - 1 });
          return { apiKey: org.apiKey, body: singleBody(), org: org.organizationId };
        },
      },
      {
        name: 'wallet covering one of two bulk recipients (no partial charge)',
        path: '/send-bulk',
        message: 'Insufficient credits',
        request: async () => {
          const org = await provisionOrganization(runtime, { name: 'Half Wallet', walletMicros: PRICE_MICROS.utility['91'] * 2 - 1 });
          const data = [
            { countryCode: '91', toPhoneNumber: localNumber() },
            { countryCode: '91', toPhoneNumber: localNumber() },
          ];
          return { apiKey: org.apiKey, body: bulkBody('half', data), org: org.organizationId };
        },
      },
      {
        name: 'unknown template',
        path: '/send-single',
        message: 'Template does not exist',
        request: () => demo(singleBody({ templateName: 'no_such_template' })),
      },
      {
        name: 'template not approved (PENDING)',
        path: '/send-single',
        message: 'Template does not exist',
        request: () => demo(singleBody({ templateName: 'holiday_offer', templateLanguage: 'en', templateParams: ['Ada'] })),
      },
      {
        name: 'unknown template (send-bulk)',
        path: '/send-bulk',
        message: 'Template does not exist',
        request: () => demo(bulkBody('unknown template', [{ countryCode: '91', toPhoneNumber: localNumber() }], { templateName: 'nope' })),
      },
      {
        name: 'language without an approved variant',
        path: '/send-single',
        message: 'Invalid template language',
        request: () => demo(singleBody({ templateLanguage: 'fr' })),
      },
      {
        name: 'language without an approved variant (send-bulk)',
        path: '/send-bulk',
        message: 'Invalid template language',
        request: () => demo(bulkBody('bad language', [{ countryCode: '91', toPhoneNumber: localNumber() }], { templateLanguage: 'de' })),
      },
      // Issue 35: the field and the rule ride beside the contract's message.
      {
        name: 'number with letters',
        path: '/send-single',
        message: 'Invalid phone number format',
        details: { field: 'toPhoneNumber', rule: WRITTEN_NUMBER_FORM_RULE },
        request: () => demo(singleBody({ toPhoneNumber: '98765abcde' })),
      },
      {
        name: 'country code with a |',
        path: '/send-single',
        message: 'Invalid phone number format',
        details: { field: 'countryCode', rule: WRITTEN_NUMBER_FORM_RULE },
        request: () => demo(singleBody({ countryCode: '9|1' })),
      },
      {
        name: 'an empty number',
        path: '/send-single',
        message: 'Invalid phone number format',
        details: { field: 'toPhoneNumber', rule: 'must not be empty' },
        request: () => demo(singleBody({ toPhoneNumber: ' ' })),
      },
      {
        name: 'number longer than E.164 allows',
        path: '/send-single',
        message: 'Invalid phone number format',
        details: { field: 'toPhoneNumber', rule: 'with countryCode must have at most 15 digits' },
        request: () => demo(singleBody({ toPhoneNumber: '98765432101234' })),
      },
      {
        name: 'country without pricing',
        path: '/send-single',
        message: 'Pricing not available',
        request: () => demo(singleBody({ countryCode: '86', toPhoneNumber: '13800138000' })),
      },
      {
        name: '1,001 recipients',
        path: '/send-bulk',
        message: 'Recipient limit exceeded',
        request: () =>
          demo(
            bulkBody(
              'too many',
              Array.from({ length: 1001 }, (_, index) => ({ countryCode: '91', toPhoneNumber: String(9_600_000_000 + index) })),
            ),
          ),
      },
      {
        name: 'parameter count of a single send',
        path: '/send-single',
        message: 'templateParams must have exactly 2 values for template order_update',
        request: () => demo(singleBody({ templateParams: ['only one'] })),
      },
      { name: 'body shape', path: '/send-single', message: 'templateName is required', request: () => demo(singleBody({ templateName: undefined })) },
      // No written number is longer than 32 characters; a 500 KB one would not fit the ledger item that lists it.
      {
        name: 'a 500 KB toPhoneNumber',
        path: '/send-single',
        message: 'toPhoneNumber must be at most 32 characters',
        request: () => demo(singleBody({ toPhoneNumber: '9'.repeat(500_000) })),
      },
      {
        name: 'a 500 KB countryCode',
        path: '/send-single',
        message: 'countryCode must be at most 32 characters',
        request: () => demo(singleBody({ countryCode: '9'.repeat(500_000) })),
      },
      // Issue 25: a business-scoped user id instead of the number, never both.
      {
        name: 'a userId with a number',
        path: '/send-single',
        message: 'userId must not be given with countryCode or toPhoneNumber',
        request: () => demo(singleBody({ userId: 'US.13491208655302741918' })),
      },
      {
        name: 'a userId that is not one',
        path: '/send-single',
        message:
          'userId must be a business-scoped user id: a 2-letter ISO country code, a dot, an optional ENT. and 1 to 128 letters or digits (e.g. US.13491208655302741918)',
        request: () => demo(singleBody({ countryCode: undefined, toPhoneNumber: undefined, userId: 'us.1' })),
      },
      {
        name: 'a 500 KB toPhoneNumber (send-bulk)',
        path: '/send-bulk',
        message: 'data[1].toPhoneNumber must be at most 32 characters',
        request: () =>
          demo(
            bulkBody('huge number', [
              { countryCode: '91', toPhoneNumber: localNumber() },
              { countryCode: '91', toPhoneNumber: '9'.repeat(500_000) },
            ]),
          ),
      },
    ];

    it.each(cases.map((testCase) => [`${testCase.message}: ${testCase.name}`, testCase] as const))('%s', async (_name, testCase) => {
      const { apiKey, body, org } = await testCase.request();
      const [balanceBefore, jobsBefore, sandboxBefore] = [await walletMicros(org), await jobCount(org), runtime.sandbox!.acceptedMessages().length];
      const response = await post(testCase.path, apiKey, body);
      expectFailureBody(response, 400, testCase.message, testCase.path, testCase.details);
      expect(await walletMicros(org)).toBe(balanceBefore);
      expect(await jobCount(org)).toBe(jobsBefore);
      await runtime.workersIdle();
      expect(runtime.sandbox!.acceptedMessages()).toHaveLength(sandboxBefore);
    });

    it('Broadcast with same name exists: campaign names are unique per organization, case-insensitively, across send-bulk and send-bulk-standard', async () => {
      const apiKey = await freshKey();
      const first = await post('/send-bulk', apiKey, bulkBody('Autumn Campaign', [{ countryCode: '91', toPhoneNumber: localNumber() }]));
      expect(first.status).toBe(200);
      const balance = await walletMicros(organizationId);
      const jobs = await jobCount(organizationId);

      for (const [path, name] of [
        ['/send-bulk', 'Autumn Campaign'],
        ['/send-bulk', 'autumn CAMPAIGN'],
        ['/send-bulk-standard', ' Autumn Campaign '],
      ] as const) {
        const again = await post(path, apiKey, bulkBody(name, [{ countryCode: '91', toPhoneNumber: localNumber() }]));
        expectFailureBody(again, 400, 'Broadcast with same name exists', path);
      }
      expect(await walletMicros(organizationId)).toBe(balance);
      expect(await jobCount(organizationId)).toBe(jobs);

      // Another organization may use the same name.
      const other = await provisionOrganization(runtime, { name: 'Same Name Elsewhere', walletMicros: 1_000_000 });
      expect((await post('/send-bulk', other.apiKey, bulkBody('Autumn Campaign', [{ countryCode: '91', toPhoneNumber: localNumber() }]))).status).toBe(200);
    });

    it('a refused request does not take its campaign name (1,001 recipients, then the same name with 1)', async () => {
      const apiKey = await freshKey();
      const tooMany = Array.from({ length: 1001 }, (_, index) => ({ countryCode: '91', toPhoneNumber: String(9_500_000_000 + index) }));
      expectFailureBody(await post('/send-bulk', apiKey, bulkBody('Winter Campaign', tooMany)), 400, 'Recipient limit exceeded', '/send-bulk');
      expect((await post('/send-bulk', apiKey, bulkBody('Winter Campaign', tooMany.slice(0, 1)))).status).toBe(200);
    });
  });

  describe('the nested answer and its cost summary', () => {
    it('send-single: one message at the destination price, debited from the wallet, sent from the first sender of an unbound key', async () => {
      const before = await walletMicros(organizationId);
      const body = singleBody({ countryCode: '44', toPhoneNumber: '07700900123', templateParams: ['Grace', 'G-1'] });
      const response = await post('/send-single', await freshKey(), body);
      const cost = PRICE_MICROS.utility['44'];
      expect(response.status).toBe(200);
      expect(response.body).toEqual(
        nestedAnswer('Message queued successfully', {
          total_contacts: 1,
          failed_contacts: 0,
          estimated_cost: units(cost),
          oldBalance: units(before),
          newEstimatedBalance: units(before - cost),
        }),
      );
      expect(response.body.data.data.estimated_cost).toBe(0.022);
      expect(await walletMicros(organizationId)).toBe(before - cost);

      // The trunk 0 is dropped; the unbound key sends from the organization's first sender (sorted).
      const to = '447700900123';
      const [message] = await eventually(
        () => Promise.resolve(acceptedTo(to)),
        (messages) => messages.length > 0,
        20_000,
      );
      expect(message!.phoneNumberId).toBe(DEMO.phoneNumberId1);
      expect(message!.body).toEqual(metaTemplateBody(to, 'order_update', 'en_US', ['Grace', 'G-1']));
      const location = await eventually(
        () => getServices().broadcast.broadcasts.findByMessageId(message!.messageId),
        (found) => found?.entry.status === 'SENT',
        10_000,
      );
      expect(location!.jobId).toMatch(/^leg_/);
    });

    it('send-single to a business-scoped user id: priced by its country (US: +1), listed by userId', async () => {
      const before = await walletMicros(organizationId);
      const userId = 'US.13491208655302741918';
      const response = await post('/send-single', await freshKey(), singleBody({ countryCode: undefined, toPhoneNumber: undefined, userId }));
      expect(response.status).toBe(200);
      expect(response.body.data.data).toMatchObject({ total_contacts: 1, failed_contacts: 0, estimated_cost: units(PRICE_MICROS.utility['1']) });
      expect(await walletMicros(organizationId)).toBe(before - PRICE_MICROS.utility['1']);
    });

    it('send-single with a key bound to a sender sends from that sender', async () => {
      const to = `91${localNumber()}`;
      const response = await post('/send-single', await freshKey(organizationId, DEMO.sender2), singleBody({ toPhoneNumber: to.slice(2) }));
      expect(response.status).toBe(200);
      const [message] = await eventually(
        () => Promise.resolve(acceptedTo(to)),
        (messages) => messages.length > 0,
        20_000,
      );
      expect(message!.phoneNumberId).toBe(DEMO.phoneNumberId2);
    });

    it('send-bulk: partial failures are counted, not charged, and stored in the ledger with their failure_reason_code', async () => {
      const before = await walletMicros(organizationId);
      const [a, b, c] = [localNumber(), localNumber(), localNumber()];
      const data = [
        { countryCode: '91', toPhoneNumber: a, templateParams: ['Ada', 'A-1'] }, // 0: sent, own parameters
        { countryCode: '44', toPhoneNumber: '7700900200' }, // 1: sent, global parameters
        { countryCode: '1', toPhoneNumber: '2025550143' }, // 2: sent
        { countryCode: '91', toPhoneNumber: '98abc43210' }, // 3: INVALID_PHONE_NUMBER
        { countryCode: '91', toPhoneNumber: `0${a}` }, // 4: DUPLICATE_RECIPIENT of 0 (trunk 0 dropped)
        { countryCode: '91', toPhoneNumber: b, templateParams: ['only one'] }, // 5: 131014
        { countryCode: '86', toPhoneNumber: '13800138000' }, // 6: UNSUPPORTED_COUNTRY_CODE
        { countryCode: '91', toPhoneNumber: ` ${c.slice(0, 3)}|${c.slice(3)}` }, // 7: INVALID_PHONE_NUMBER (a `+91` is a number since issue 35)
        { countryCode: '49', toPhoneNumber: '015112345678' }, // 8: sent, trunk 0 dropped
      ];
      const response = await post('/send-bulk', await freshKey(), bulkBody('Partial Failures', data));
      const cost = PRICE_MICROS.utility['91'] + PRICE_MICROS.utility['44'] + PRICE_MICROS.utility['1'] + PRICE_MICROS.utility['49'];
      expect(cost).toBe(82_400);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(
        nestedAnswer('Bulk messages queued for 4 of 9 contacts', {
          total_contacts: 9,
          failed_contacts: 5,
          estimated_cost: 0.0824,
          oldBalance: units(before),
          newEstimatedBalance: units(before - cost),
          // Issue 35: each refused row named, in request order (an addition to the contract's summary).
          failures: [
            { index: 3, failureReasonCode: 'INVALID_PHONE_NUMBER', message: `data[3].toPhoneNumber ${WRITTEN_NUMBER_FORM_RULE}` },
            { index: 4, failureReasonCode: 'DUPLICATE_RECIPIENT', message: 'The number appears earlier in the same request' },
            { index: 5, failureReasonCode: '131014', message: 'The template parameters do not match the template' },
            { index: 6, failureReasonCode: 'UNSUPPORTED_COUNTRY_CODE', message: 'No price is set for the country code' },
            { index: 7, failureReasonCode: 'INVALID_PHONE_NUMBER', message: `data[7].toPhoneNumber ${WRITTEN_NUMBER_FORM_RULE}` },
          ],
        }),
      );
      expect(await walletMicros(organizationId)).toBe(before - cost);

      const jobId = await latestJobId(organizationId);
      expect(jobId).toMatch(/^leg_/);
      expect(await getServices().broadcast.broadcasts.getJob(jobId)).toMatchObject({
        broadcastName: 'Partial Failures',
        exposed: false,
        totalRecipients: 9,
        fromPhoneNumber: DEMO.sender1,
        template: { name: 'order_update', language: 'en_US', category: 'UTILITY' },
      });
      const [chunk] = await eventually(
        () => chunkProgressOf(getServices().broadcast.broadcasts, jobId),
        (chunks) => chunks[0]?.done === true,
        20_000,
      );
      expect(chunk).toMatchObject({
        recipientCount: 9,
        sent: 4,
        failed: 5,
        unknown: 0,
        failuresByReason: { INVALID_PHONE_NUMBER: 2, DUPLICATE_RECIPIENT: 1, '131014': 1, UNSUPPORTED_COUNTRY_CODE: 1 },
      });
      const ledger = await ledgerOf(jobId, 0);
      const failures = [...ledger.values()].filter((entry) => entry.status === 'FAILED').map((entry) => [entry.index, entry.to, entry.failureReasonCode]);
      expect(failures.sort((x, y) => Number(x[0]) - Number(y[0]))).toEqual([
        // Issue 35: a number breaking the rule is kept under a safe key, never as written.
        [3, 'invalid:3', 'INVALID_PHONE_NUMBER'],
        [4, `91${a}`, 'DUPLICATE_RECIPIENT'],
        [5, `91${b}`, '131014'],
        [6, '8613800138000', 'UNSUPPORTED_COUNTRY_CODE'],
        [7, 'invalid:7', 'INVALID_PHONE_NUMBER'],
      ]);
      const sent = new Map([...ledger.values()].filter((entry) => entry.status === 'SENT').map((entry) => [entry.index, entry]));
      expect([...sent.keys()].sort()).toEqual([0, 1, 2, 8]);
      for (const entry of sent.values()) expect(entry.messageId).toEqual(acceptedTo(entry.to)[0]?.messageId);

      expect(acceptedTo(`91${a}`).map((message) => message.body)).toEqual([metaTemplateBody(`91${a}`, 'order_update', 'en_US', ['Ada', 'A-1'])]);
      expect(acceptedTo('447700900200').map((message) => message.body)).toEqual([
        metaTemplateBody('447700900200', 'order_update', 'en_US', ['Customer', 'ORD-1']),
      ]);
      expect(acceptedTo('4915112345678')).toHaveLength(1);
      for (const to of [`91${b}`, '8613800138000']) expect(acceptedTo(to)).toHaveLength(0);
    });

    it('send-bulk where every recipient fails: nothing charged, nothing sent, the job still ends', async () => {
      const before = await walletMicros(organizationId);
      const data = [
        { countryCode: '91', toPhoneNumber: '12' },
        { countryCode: '86', toPhoneNumber: '13800138001' },
      ];
      const response = await post('/send-bulk', await freshKey(), bulkBody('All Invalid', data));
      expect(response.body).toEqual(
        nestedAnswer('Bulk messages queued for 0 of 2 contacts', {
          total_contacts: 2,
          failed_contacts: 2,
          estimated_cost: 0,
          oldBalance: units(before),
          newEstimatedBalance: units(before),
          failures: [
            { index: 0, failureReasonCode: 'INVALID_PHONE_NUMBER', message: 'data[0].toPhoneNumber must have 4 to 14 digits without leading zeros' },
            { index: 1, failureReasonCode: 'UNSUPPORTED_COUNTRY_CODE', message: 'No price is set for the country code' },
          ],
        }),
      );
      expect(await walletMicros(organizationId)).toBe(before);
      const jobId = await latestJobId(organizationId);
      const [chunk] = await chunkProgressOf(getServices().broadcast.broadcasts, jobId);
      expect(chunk).toMatchObject({ done: true, sent: 0, failed: 2, failuresByReason: { INVALID_PHONE_NUMBER: 1, UNSUPPORTED_COUNTRY_CODE: 1 } });
    });

    it('send-bulk-standard is send-bulk; the price follows the template’s real category, not templateType', async () => {
      const before = await walletMicros(organizationId);
      const a = localNumber();
      const body = bulkBody(
        'Standard Tier',
        [
          { countryCode: '91', toPhoneNumber: a },
          { countryCode: '971', toPhoneNumber: '501234567' },
        ],
        {
          templateName: 'spring_sale',
          templateLanguage: 'en',
          templateType: 'UTILITY', // informational: spring_sale is MARKETING, and is priced so
          globalTemplateParams: ['Ada'],
        },
      );
      const response = await post('/send-bulk-standard', await freshKey(), body);
      const cost = PRICE_MICROS.marketing['91'] + PRICE_MICROS.marketing['971'];
      expect(response.status).toBe(200);
      expect(response.body).toEqual(
        nestedAnswer('Bulk messages queued for 2 of 2 contacts', {
          total_contacts: 2,
          failed_contacts: 0,
          estimated_cost: 0.0491,
          oldBalance: units(before),
          newEstimatedBalance: units(before - cost),
        }),
      );
      expect(await walletMicros(organizationId)).toBe(before - cost);
      await eventually(
        () => Promise.resolve(acceptedTo(`91${a}`).length + acceptedTo('971501234567').length),
        (count) => count === 2,
        20_000,
      );
      expect(acceptedTo(`91${a}`)[0]!.body).toEqual(metaTemplateBody(`91${a}`, 'spring_sale', 'en', ['Ada']));

      // The health inventory lists it, as the earlier description's did.
      const health = await runtime.call('GET', `${PUBLIC_PATH}/health`);
      expect(health.body.endpoints['send-bulk-standard']).toBe(`POST ${PUBLIC_PATH}/send-bulk-standard`);
    });
  });

  it("Meta's US marketing pause: send-bulk records a MARKETING template's +1 recipient as a partial failure, send-single answers 400", async () => {
    const a = localNumber();
    const body = bulkBody(
      'US pause',
      [
        { countryCode: '91', toPhoneNumber: a },
        { countryCode: '1', toPhoneNumber: '2025550199' },
      ],
      {
        templateName: 'spring_sale',
        templateLanguage: 'en',
        templateType: 'MARKETING',
        globalTemplateParams: ['Ada'],
      },
    );
    const response = await post('/send-bulk', await freshKey(), body);
    expect(response.status).toBe(200);
    expect(response.body.data.data).toMatchObject({ total_contacts: 2, failed_contacts: 1 });
    const jobId = await latestJobId(organizationId);
    await eventually(
      () => chunkProgressOf(getServices().broadcast.broadcasts, jobId),
      ([chunk]) => chunk?.done === true,
      20_000,
    );
    const [chunk] = await chunkProgressOf(getServices().broadcast.broadcasts, jobId);
    expect(chunk).toMatchObject({ failuresByReason: { US_MARKETING_PAUSED: 1 } });
    expect(acceptedTo('12025550199')).toHaveLength(0);

    const single = await post(
      '/send-single',
      await freshKey(),
      singleBody({
        templateName: 'spring_sale',
        templateLanguage: 'en',
        templateType: 'MARKETING',
        countryCode: '1',
        toPhoneNumber: '2025550198',
        templateParams: ['Ada'],
      }),
    );
    expect(single.status).toBe(400);
    expect(single.body.data.error.code).toBe('US_MARKETING_PAUSED');
    expect(single.body.message).toMatch(/^countryCode must not be a US recipient for MARKETING template spring_sale/);
  });

  it('never overdraws the wallet: with N × price in it, exactly N of 2N concurrent sends succeed and N messages go out', async () => {
    const N = 5;
    const price = PRICE_MICROS.utility['91'];
    const org = await provisionOrganization(runtime, { name: 'Exact Wallet', walletMicros: N * price });
    const numbers = Array.from({ length: 2 * N }, () => localNumber());
    const responses = await Promise.all(numbers.map((toPhoneNumber) => post('/send-single', org.apiKey, singleBody({ toPhoneNumber }))));

    const succeeded = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status !== 200);
    expect(succeeded).toHaveLength(N);
    expect(refused).toHaveLength(N);
    for (const response of refused) expectFailureBody(response, 400, 'Insufficient credits', '/send-single');
    // Each success saw its own debit: the balances after it are N-1 … 0 prices, each once.
    const after = succeeded.map((response) => response.body.data.data.newEstimatedBalance as number).sort((x, y) => x - y);
    expect(after).toEqual(Array.from({ length: N }, (_, index) => units(index * price)));
    for (const response of succeeded) {
      expect(response.body.data.data.oldBalance - response.body.data.data.newEstimatedBalance).toBeCloseTo(units(price), 10);
    }
    expect(await walletMicros(org.organizationId)).toBe(0);

    const fromOrg = () => runtime.sandbox!.acceptedMessages().filter((message) => message.phoneNumberId === org.phoneNumberId);
    await eventually(
      () => Promise.resolve(fromOrg().length),
      (count) => count >= N,
      20_000,
    );
    await runtime.workersIdle();
    expect(fromOrg()).toHaveLength(N);
  });

  describe('retries with backoff on rate limits, ending with one message', () => {
    it.each([
      ['130429 (throughput, HTTP 400 as Meta sends it)', { code: 130429 }],
      ['80007 (business account rate limit)', { code: 80007 }],
      ['HTTP 429', { code: 4, httpStatus: 429 }],
    ])('%s twice, then accepted', async (_name, rule) => {
      const local = localNumber();
      const to = `91${local}`;
      runtime.sandbox!.configure({ recipientErrors: { [to]: { ...rule, times: 2 } } });
      try {
        const before = await walletMicros(organizationId);
        const response = await post('/send-single', await freshKey(), singleBody({ toPhoneNumber: local }));
        expect(response.status).toBe(200);
        const [message] = await eventually(
          () => Promise.resolve(acceptedTo(to)),
          (messages) => messages.length > 0,
          20_000,
        );
        const location = await eventually(
          () => getServices().broadcast.broadcasts.findByMessageId(message!.messageId),
          (found) => found?.entry.status === 'SENT',
          10_000,
        );
        expect(location!.entry).toMatchObject({ to, status: 'SENT', attempts: 3, messageId: message!.messageId });
        await runtime.workersIdle();
        expect(acceptedTo(to)).toHaveLength(1);
        // Charged once, at acceptance.
        expect(await walletMicros(organizationId)).toBe(before - PRICE_MICROS.utility['91']);
      } finally {
        runtime.sandbox!.configure({ recipientErrors: { [to]: null } });
      }
    });
  });
});
