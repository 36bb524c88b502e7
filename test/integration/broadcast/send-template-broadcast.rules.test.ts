/**
 * POST /broadcast/public/send-template-broadcast: every rule of the contract, against the local
 * runtime and the Cloud API sandbox. Workers do not run on their own here: after each request
 * the test looks at the queue itself, then runs the real chunk-worker handler until the queue is
 * idle, so "nothing was queued" and "nothing reached the sandbox" are both observed, not assumed.
 */
import type { TestRuntime } from '../../support/local-runtime';
import {
  BASE,
  DEMO,
  acceptedByRecipient,
  bodyParameters,
  chunkOf,
  issueKey,
  jobCount,
  keyHeader,
  metaTemplateBody,
  orderUpdate,
  queueDepth,
  readJob,
  receiveAll,
  recipients,
  release,
  remove,
  runWorkersUntilIdle,
  useKitRuntime,
  type Recipient,
} from './broadcast-test-kit';

describe('send-template-broadcast: rules and response forms', () => {
  let runtime: TestRuntime;
  let organizationId: string;

  useKitRuntime(async (started) => {
    runtime = started;
    organizationId = runtime.demo.organizationId;
  });

  /** Each request gets a key of its own, so the 10/min limit per key and sender never interferes. */
  const send = async (body: unknown, options: { rawBody?: string; headers?: Record<string, string> } = {}) => {
    const key = await issueKey(organizationId);
    return runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: { ...keyHeader(key.secret), ...options.headers },
      ...(options.rawBody !== undefined ? { rawBody: options.rawBody } : { body }),
    });
  };

  const withData = (data: Recipient[], overrides: Record<string, unknown> = {}) => orderUpdate(data, overrides);
  const duplicateAt = (data: Recipient[], index: number, of: number) => {
    const copy = data.map((recipient) => ({ ...recipient }));
    copy[index] = { ...copy[of]!, templateParams: ['other', 'values'] };
    return copy;
  };

  interface RejectionCase {
    name: string;
    body?: () => unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    status: number;
    code: string;
    /** Every pattern must appear in the message: the field or recipient index, and the rule. */
    message: RegExp[];
  }

  const cases: RejectionCase[] = [
    { name: 'no recipients', body: () => withData([]), status: 400, code: 'VALIDATION_FAILED', message: [/^data /, /at least 1 recipient/] },
    {
      name: '10,001 recipients',
      body: () => withData(recipients(10_001)),
      status: 400,
      code: 'VALIDATION_FAILED',
      message: [/^data /, /at most 10000 recipients/],
    },
    {
      name: 'data is not an array',
      body: () => withData('everyone' as never),
      status: 400,
      code: 'VALIDATION_FAILED',
      message: [/^data /, /array/],
    },
    {
      name: 'fromPhoneNumber with a +',
      body: () => withData(recipients(2), { fromPhoneNumber: `+${DEMO.sender1}` }),
      status: 400,
      code: 'VALIDATION_FAILED',
      message: [/^fromPhoneNumber /, /digits only/],
    },
    {
      name: 'countryCode with a + (recipient 3)',
      body: () => withData(recipients(5).map((recipient, index) => (index === 3 ? { ...recipient, countryCode: '+91' } : recipient))),
      status: 400,
      code: 'VALIDATION_FAILED',
      message: [/^data\[3\]\.countryCode /, /digits only/],
    },
    {
      name: 'toPhoneNumber with punctuation (recipient 5)',
      body: () => withData(recipients(7).map((recipient, index) => (index === 5 ? { ...recipient, toPhoneNumber: '98765-43210' } : recipient))),
      status: 400,
      code: 'VALIDATION_FAILED',
      message: [/^data\[5\]\.toPhoneNumber /, /digits only/],
    },
    {
      name: 'toPhoneNumber with spaces (recipient 0)',
      body: () => withData([{ countryCode: '91', toPhoneNumber: '98765 43210', templateParams: ['a', 'b'] }]),
      status: 400,
      code: 'VALIDATION_FAILED',
      message: [/^data\[0\]\.toPhoneNumber /, /digits only/],
    },
    {
      name: 'country code and number longer than E.164 allows (recipient 1)',
      body: () => withData([recipients(1)[0]!, { countryCode: '971', toPhoneNumber: '1234567890123', templateParams: ['a', 'b'] }]),
      status: 400,
      code: 'INVALID_RECIPIENT',
      message: [/data\[1\]/, /at most 15 digits/],
    },
    {
      name: 'missing broadcastName',
      body: () => {
        const { broadcastName: _omitted, ...rest } = withData(recipients(1));
        return rest;
      },
      status: 400,
      code: 'VALIDATION_FAILED',
      message: [/^broadcastName /, /required/],
    },
    {
      name: 'templateType outside MARKETING/UTILITY',
      body: () => withData(recipients(1), { templateType: 'PROMOTION' }),
      status: 400,
      code: 'VALIDATION_FAILED',
      message: [/^templateType /, /MARKETING or UTILITY/],
    },
    {
      name: 'a duplicate recipient (data[4] repeats data[1])',
      body: () => withData(duplicateAt(recipients(6), 4, 1)),
      status: 400,
      code: 'DUPLICATE_RECIPIENT',
      message: [/data\[4\] duplicates data\[1\]/, /nothing was queued/],
    },
    {
      name: 'a duplicate written with a trunk 0 (data[2] is data[0])',
      body: () => withData([...recipients(2), { countryCode: '91', toPhoneNumber: '09000000000', templateParams: ['x', 'y'] }]),
      status: 400,
      code: 'DUPLICATE_RECIPIENT',
      message: [/data\[2\] duplicates data\[0\]/],
    },
    {
      name: 'a duplicate far into a 1,500-recipient (two-chunk) request: no valid chunk is queued either',
      body: () => withData(duplicateAt(recipients(1_500), 1_400, 3)),
      status: 400,
      code: 'DUPLICATE_RECIPIENT',
      message: [/data\[1400\] duplicates data\[3\]/, /nothing was queued/],
    },
    {
      name: 'an unknown template',
      body: () => withData(recipients(1), { templateName: 'no_such_template' }),
      status: 400,
      code: 'TEMPLATE_NOT_FOUND',
      message: [/templateName no_such_template/, /not a template of sender 15550100001/],
    },
    {
      name: "another organization's template",
      body: () => withData(recipients(1, { params: () => ['tomorrow'] }), { templateName: 'appointment_reminder' }),
      status: 400,
      code: 'TEMPLATE_NOT_FOUND',
      message: [/templateName appointment_reminder/, /not a template of sender/],
    },
    {
      name: 'a language the template does not have',
      body: () => withData(recipients(1), { templateLanguage: 'en' }),
      status: 400,
      code: 'TEMPLATE_NOT_FOUND',
      message: [/templateLanguage en /, /order_update/, /available: en_US/],
    },
    {
      name: 'a PENDING template',
      body: () => withData(recipients(1, { params: () => ['Ann'] }), { templateName: 'holiday_offer', templateLanguage: 'en', templateType: 'MARKETING' }),
      status: 400,
      code: 'TEMPLATE_NOT_APPROVED',
      message: [/holiday_offer/, /PENDING/, /only APPROVED/],
    },
    {
      name: 'templateType that is not the template category',
      body: () => withData(recipients(1), { templateType: 'MARKETING' }),
      status: 400,
      code: 'TEMPLATE_MISMATCH',
      message: [/templateType MARKETING/, /category of template order_update \(UTILITY\)/],
    },
    {
      name: 'templateId of another template',
      body: () => withData(recipients(1), { templateId: DEMO.templateIds.spring_sale }),
      status: 400,
      code: 'TEMPLATE_MISMATCH',
      message: [/templateId 130000000000002/, /order_update/],
    },
    {
      name: 'too few own parameters (recipient 2)',
      body: () => withData(recipients(4, { params: (index) => (index === 2 ? ['only one'] : ['a', 'b']) })),
      status: 400,
      code: 'TEMPLATE_PARAMETER_COUNT',
      message: [/data\[2\]\.templateParams has 1 values/, /needs exactly 2/],
    },
    {
      name: 'too many own parameters for a template without placeholders (recipient 0)',
      body: () => withData(recipients(1, { params: () => ['unexpected'] }), { templateName: 'welcome_message' }),
      status: 400,
      code: 'TEMPLATE_PARAMETER_COUNT',
      message: [/data\[0\]\.templateParams has 1 values/, /needs exactly 0/],
    },
    {
      name: 'globalTemplateParams of the wrong size, used by recipient 1',
      body: () => withData(recipients(3, { params: (index) => (index === 0 ? ['a', 'b'] : undefined) }), { globalTemplateParams: ['only one'] }),
      status: 400,
      code: 'TEMPLATE_PARAMETER_COUNT',
      message: [/globalTemplateParams \(used by data\[1\]\) has 1 values/, /needs exactly 2/],
    },
    {
      name: 'no parameters at all for a template that needs them (recipient 0)',
      body: () => withData(recipients(2, { params: () => undefined })),
      status: 400,
      code: 'TEMPLATE_PARAMETER_COUNT',
      message: [/data\[0\] has no templateParams and no globalTemplateParams/, /needs exactly 2/],
    },
    {
      name: 'malformed JSON',
      rawBody: '{"broadcastName": "x", "data": [',
      status: 400,
      code: 'MALFORMED_JSON',
      message: [/not valid JSON/],
    },
    {
      name: 'a Content-Type that is not JSON',
      rawBody: JSON.stringify(orderUpdate(recipients(1))),
      headers: { 'content-type': 'text/plain' },
      status: 400,
      code: 'UNSUPPORTED_CONTENT_TYPE',
      message: [/text\/plain/, /application\/json/],
    },
  ];

  it.each(cases)(
    'rejects $name: status, message, and nothing queued or sent',
    async (rejection) => {
      const jobsBefore = await jobCount(organizationId);
      const response = await send(rejection.body?.(), { rawBody: rejection.rawBody, headers: rejection.headers });

      expect(response.status).toBe(rejection.status);
      expect(response.body).toMatchObject({
        status: false,
        status_code: rejection.status,
        data: { error: { code: rejection.code } },
      });
      for (const pattern of rejection.message) expect(response.body.message).toMatch(pattern);
      expect(response.body.data.error.message).toBe(response.body.message);

      // Nothing queued, no job recorded, and (after the workers had their chance) nothing sent.
      expect(await queueDepth(runtime)).toBe(0);
      expect(await jobCount(organizationId)).toBe(jobsBefore);
      await runWorkersUntilIdle(runtime);
      expect(runtime.sandbox!.acceptedMessages()).toHaveLength(0);
    },
    30_000,
  );

  it('rejects a sender of another organization with 401 and sends nothing', async () => {
    const response = await send(withData(recipients(1), { fromPhoneNumber: runtime.demo.otherOrg.phoneNumber }));
    expect(response.status).toBe(401);
    expect(response.body.data.error.code).toBe('SENDER_NOT_OWNED');
    expect(response.body.message).toContain(runtime.demo.otherOrg.phoneNumber);
    expect(await queueDepth(runtime)).toBe(0);
  });

  it('answers 200 for one recipient: bulk broadcast queued, data {}, no job id; Meta-shaped send', async () => {
    const response = await send(withData([{ countryCode: '1', toPhoneNumber: '2025550101', templateParams: ['Ann', 'A-1'] }]));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true, status_code: 200, message: expect.stringMatching(/bulk broadcast.*queued/i), data: {} });
    expect(JSON.stringify(response.body)).not.toMatch(/jobId/);

    expect(await queueDepth(runtime)).toBe(1);
    await runWorkersUntilIdle(runtime);
    const sent = runtime.sandbox!.acceptedMessages();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.phoneNumberId).toBe(DEMO.phoneNumberId1);
    expect(sent[0]!.body).toEqual(metaTemplateBody('12025550101', 'order_update', 'en_US', ['Ann', 'A-1']));
  });

  it('uses globalTemplateParams for recipients without their own, in order, and own params otherwise', async () => {
    const data: Recipient[] = [
      { countryCode: '91', toPhoneNumber: '9100000001', templateParams: ['Own', 'O-1'] },
      { countryCode: '91', toPhoneNumber: '9100000002' },
      // A trunk 0 is dropped: the upstream `to` is country code + national number.
      { countryCode: '44', toPhoneNumber: '07700900123' },
    ];
    const response = await send(withData(data, { globalTemplateParams: ['Friend', 'G-9'] }));
    expect(response.status).toBe(200);
    await runWorkersUntilIdle(runtime);

    const byRecipient = acceptedByRecipient(runtime);
    expect([...byRecipient.keys()].sort()).toEqual(['447700900123', '919100000001', '919100000002']);
    expect(byRecipient.get('919100000001')![0]!.body).toEqual(metaTemplateBody('919100000001', 'order_update', 'en_US', ['Own', 'O-1']));
    expect(byRecipient.get('919100000002')![0]!.body).toEqual(metaTemplateBody('919100000002', 'order_update', 'en_US', ['Friend', 'G-9']));
    expect(byRecipient.get('447700900123')![0]!.body).toEqual(metaTemplateBody('447700900123', 'order_update', 'en_US', ['Friend', 'G-9']));
  });

  it('sends a template without placeholders with no body components, and a MARKETING template in its language', async () => {
    const welcome = await send(withData(recipients(1, { first: 9_200_000_000, params: () => undefined }), { templateName: 'welcome_message' }));
    expect(welcome.status).toBe(200);
    const sale = await send(
      withData(recipients(1, { first: 9_300_000_000, params: () => ['Bea'] }), {
        templateName: 'spring_sale',
        templateLanguage: 'en',
        templateType: 'MARKETING',
        templateId: DEMO.templateIds.spring_sale,
      }),
    );
    expect(sale.status).toBe(200);
    await runWorkersUntilIdle(runtime);
    const byRecipient = acceptedByRecipient(runtime);
    expect(byRecipient.get('919200000000')![0]!.body).toEqual(metaTemplateBody('919200000000', 'welcome_message', 'en_US', []));
    expect(byRecipient.get('919300000000')![0]!.body).toEqual(metaTemplateBody('919300000000', 'spring_sale', 'en', ['Bea']));
  });

  it('answers 200 for 1,000 recipients (data {}, no job id) and sends each exactly once', async () => {
    const data = recipients(1_000, { first: 9_400_000_000 });
    const response = await send(withData(data));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({});
    expect(JSON.stringify(response.body)).not.toMatch(/jobId/);

    await runWorkersUntilIdle(runtime);
    const byRecipient = acceptedByRecipient(runtime);
    expect(byRecipient.size).toBe(1_000);
    expect([...byRecipient.values()].every((messages) => messages.length === 1)).toBe(true);
    expect(bodyParameters(byRecipient.get('919400000999')![0]!)).toEqual(['Name999', 'ORD-999']);
  }, 60_000);

  it('answers 202 for 1,001 recipients with exactly {jobId, status PROCESSING, totalRecipients, chunkSize 1000, totalChunks 2}', async () => {
    const response = await send(withData(recipients(1_001, { first: 9_500_000_000 })));
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      status: true,
      status_code: 202,
      message: expect.any(String),
      data: { jobId: expect.stringMatching(/^pub_[A-Za-z0-9_-]+$/), status: 'PROCESSING', totalRecipients: 1_001, chunkSize: 1_000, totalChunks: 2 },
    });

    // Two chunks on the queue: 1,000 recipients and 1.
    const queued = await receiveAll(runtime);
    const chunks = queued.map(chunkOf).sort((a, b) => a.chunkIndex - b.chunkIndex);
    expect(chunks.map((chunk) => [chunk.chunkIndex, chunk.recipients.length])).toEqual([
      [0, 1_000],
      [1, 1],
    ]);
    expect(chunks.every((chunk) => chunk.jobId === response.body.data.jobId)).toBe(true);
    for (const message of queued) await release(runtime, message);

    await runWorkersUntilIdle(runtime);
    const job = await readJob(organizationId, response.body.data.jobId);
    expect(job).toMatchObject({ status: 'COMPLETED', totalRecipients: 1_001, totalChunks: 2, summary: { sent: 1_001, failed: 0, unknown: 0, pending: 0 } });
    expect(acceptedByRecipient(runtime).size).toBe(1_001);
  }, 60_000);

  it('accepts the upper bound of 10,000 recipients as a job of 10 chunks of 1,000', async () => {
    const data = recipients(10_000, { first: 9_600_000_000 });
    const response = await send(withData(data));
    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ status: 'PROCESSING', totalRecipients: 10_000, chunkSize: 1_000, totalChunks: 10 });

    // The fan-out covers every recipient once, in chunks 0..9; the messages are then dropped unsent (this test is about acceptance).
    const queued = await receiveAll(runtime);
    const chunks = queued.map(chunkOf);
    expect([...new Set(chunks.map((chunk) => chunk.chunkIndex))].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const indexes = chunks.flatMap((chunk) => chunk.recipients.map(({ index }) => index)).sort((a, b) => a - b);
    expect(indexes).toEqual(Array.from({ length: 10_000 }, (_, index) => index));
    for (const message of queued) await remove(runtime, message);
    expect(await queueDepth(runtime)).toBe(0);
  }, 60_000);
});
