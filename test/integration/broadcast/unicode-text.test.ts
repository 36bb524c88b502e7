/**
 * Text through every text field, end to end (HTTP → job → SQS (fauxqs) → chunk worker → sandbox):
 * emoji (above U+FFFF, with skin tones and joiners), combining marks and right-to-left text reach the
 * sandbox byte for byte; U+FFFE, U+FFFF and unpaired surrogates get a 400 naming the field with
 * nothing recorded or queued. And the accept path when SQS fails at send: 503, the job kept as a
 * failed accept, and a retry with the same Idempotency-Key queues it, each recipient sent once.
 */
import { getServices } from '../../../functions/composition';
import { newJobId } from '../../../shared/broadcast/job-fan-out';
import { chunkProgressOf } from '../../support/chunk-progress';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, bodyParameters, issueKey, jobCount, keyHeader, kitEnvironment, orderUpdate, queueDepth, recipients } from './broadcast-test-kit';
import { randomIdGenerator } from '../../../shared/ports/id-generator';

jest.setTimeout(60_000);

const EMOJI = 'Olá 😀👍🏽 👨‍👩‍👧 🇧🇷';
const COMBINING = 'e\u0301 n\u0303 a\u0308\u0304 ก\u0e49';
const RIGHT_TO_LEFT = 'مرحبا بالعالم שלום \u200f123';
const ALLOWED = [EMOJI, COMBINING, RIGHT_TO_LEFT];
const FORBIDDEN: Array<[string, string]> = [
  ['U+FFFE', 'a\uFFFEb'],
  ['U+FFFF', 'a\uFFFFb'],
  ['an unpaired high surrogate', 'a\uD83Db'],
  ['an unpaired low surrogate', 'a\uDE00b'],
];
const RULE = 'must not contain U+FFFE, U+FFFF or unpaired surrogate characters';
const bytes = (text: unknown) => Buffer.from(String(text), 'utf8').toString('hex');

describe('text through every field: byte for byte, or a 400 before anything is written', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let nextNumber = 9_600_000_000;
  const number = () => String(nextNumber++);

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });
  beforeEach(async () => {
    await runtime.workersIdle();
    runtime.sandbox!.reset();
  });

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
    runtime.call('POST', `${BASE}${path}`, { headers: { ...keyHeader((await issueKey(organizationId)).secret), ...headers }, body });
  const acceptedTo = (to: string) => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient === to);
  const expectAllowedTextArrived = (received: string[]) => expect(received.map(bytes)).toEqual(ALLOWED.map(bytes));

  describe.each([
    ['≤ 1,000 recipients (queued bulk send)', 3],
    ['> 1,000 recipients (a job)', 1_001],
  ])('send-template-broadcast, %s', (_name, count) => {
    it('delivers template parameters with emoji, combining marks and right-to-left text byte for byte', async () => {
      const data = recipients(count, { first: Number(number()) * 10, params: (index) => (index === 0 ? [EMOJI, `${COMBINING}|${RIGHT_TO_LEFT}`] : undefined) });
      nextNumber += count;
      const response = await post('/send-template-broadcast', orderUpdate(data, { globalTemplateParams: [RIGHT_TO_LEFT, EMOJI] }));
      expect(response.status).toBe(count > 1_000 ? 202 : 200);
      await runtime.workersIdle();
      const first = await eventually(
        async () => acceptedTo(`91${data[0]!.toPhoneNumber}`),
        (messages) => messages.length === 1,
        20_000,
      );
      const [own1, own2] = bodyParameters(first[0]!);
      expectAllowedTextArrived([own1!, ...own2!.split('|')]);
      const last = acceptedTo(`91${data[count - 1]!.toPhoneNumber}`);
      expect(bodyParameters(last[0]!).map(bytes)).toEqual([RIGHT_TO_LEFT, EMOJI].map(bytes));
    });

    it.each(FORBIDDEN)('refuses %s in a parameter with a 400 naming the field; nothing is recorded or queued', async (_character, value) => {
      const jobsBefore = await jobCount(organizationId);
      const data = recipients(count, { first: 9_650_000_000, params: (index) => (index === count - 1 ? ['ok', value] : undefined) });
      const response = await post('/send-template-broadcast', orderUpdate(data, { globalTemplateParams: ['a', 'b'] }));
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).toContain(`data[${count - 1}].templateParams[1] ${RULE}`);
      const global = await post(
        '/send-template-broadcast',
        orderUpdate(recipients(2, { first: 9_650_000_000, params: () => undefined }), { globalTemplateParams: [value, 'b'] }),
      );
      expect(global.status).toBe(400);
      expect(JSON.stringify(global.body)).toContain(`globalTemplateParams[0] ${RULE}`);
      expect(await jobCount(organizationId)).toBe(jobsBefore);
      expect(await queueDepth(runtime)).toBe(0);
    });
  });

  describe('send-freeform', () => {
    const freeform = (to: string, fields: Record<string, unknown>) => ({ fromPhoneNumber: DEMO.sender1, toPhoneNumber: to, ...fields });
    const cases: Array<[string, (text: string) => Record<string, unknown>, (body: Record<string, any>) => string[], string]> = [
      ['text', (text) => ({ type: 'text', text }), (body) => [body.text.body], 'text'],
      ['image caption', (text) => ({ type: 'image', url: 'https://example.com/a.jpg', caption: text }), (body) => [body.image.caption], 'caption'],
      [
        'document name and caption',
        (text) => ({ type: 'document', url: 'https://example.com/a.pdf', name: text, caption: text }),
        (body) => [body.document.filename, body.document.caption],
        'name',
      ],
      ['video caption', (text) => ({ type: 'video', url: 'https://example.com/a.mp4', caption: text }), (body) => [body.video.caption], 'caption'],
      [
        'location name and address',
        (text) => ({ type: 'location', latitude: 1, longitude: 2, name: text, address: text }),
        (body) => [body.location.name, body.location.address],
        'name',
      ],
      [
        'interactive button texts',
        (text) => ({
          type: 'interactive',
          interactive: {
            type: 'button',
            header: { type: 'text', text },
            body: { text },
            footer: { text },
            action: { buttons: [{ type: 'reply', reply: { id: text, title: [...text].slice(0, 5).join('') } }] },
          },
        }),
        (body) => [body.interactive.header.text, body.interactive.body.text, body.interactive.footer.text, body.interactive.action.buttons[0].reply.id],
        'interactive.header.text',
      ],
      [
        'interactive list texts',
        (text) => ({
          type: 'interactive',
          interactive: {
            type: 'list',
            body: { text },
            action: { button: 'Go', sections: [{ title: 'S', rows: [{ id: 'r1', title: 'Row', description: text }] }] },
          },
        }),
        (body) => [body.interactive.body.text, body.interactive.action.sections[0].rows[0].description],
        'interactive.body.text',
      ],
    ];

    it.each(cases)('delivers %s byte for byte', async (_name, fieldsOf, textsOf) => {
      for (const text of ALLOWED) {
        const to = `91${number()}`;
        const response = await post('/send-freeform', freeform(to, fieldsOf(text)));
        expect(response.status).toBe(200);
        const [message] = await eventually(
          async () => acceptedTo(to),
          (messages) => messages.length === 1,
          20_000,
        );
        for (const received of textsOf(message!.body as Record<string, any>)) expect(bytes(received)).toBe(bytes(text));
      }
    });

    it.each(cases)('refuses forbidden characters in %s with a 400 naming the field; nothing is recorded or queued', async (_name, fieldsOf, _texts, field) => {
      const jobsBefore = await jobCount(organizationId);
      for (const [, value] of FORBIDDEN) {
        const response = await post('/send-freeform', freeform(`91${number()}`, fieldsOf(value)));
        expect(response.status).toBe(400);
        expect(JSON.stringify(response.body)).toContain(`${field} ${RULE}`);
      }
      expect(await jobCount(organizationId)).toBe(jobsBefore);
      expect(await queueDepth(runtime)).toBe(0);
    });
  });

  describe('earlier send-single and send-bulk', () => {
    const template = { templateName: 'order_update', templateLanguage: 'en_US', templateType: 'UTILITY' };

    it('delivers parameters byte for byte', async () => {
      const single = number();
      expect(
        (await post('/send-single', { ...template, countryCode: '91', toPhoneNumber: single, templateParams: [EMOJI, `${COMBINING}|${RIGHT_TO_LEFT}`] }))
          .status,
      ).toBe(200);
      const bulk = [number(), number()];
      const response = await post('/send-bulk', {
        ...template,
        broadcastName: `unicode ${bulk[0]} ${EMOJI}`,
        globalTemplateParams: [RIGHT_TO_LEFT, EMOJI],
        data: [
          { countryCode: '91', toPhoneNumber: bulk[0] },
          { countryCode: '91', toPhoneNumber: bulk[1], templateParams: [EMOJI, `${COMBINING}|${RIGHT_TO_LEFT}`] },
        ],
      });
      expect(response.status).toBe(200);
      for (const to of [single, bulk[1]!]) {
        const [message] = await eventually(
          async () => acceptedTo(`91${to}`),
          (messages) => messages.length === 1,
          20_000,
        );
        const [own1, own2] = bodyParameters(message!);
        expectAllowedTextArrived([own1!, ...own2!.split('|')]);
      }
      const [global] = await eventually(
        async () => acceptedTo(`91${bulk[0]}`),
        (messages) => messages.length === 1,
        20_000,
      );
      expect(bodyParameters(global!).map(bytes)).toEqual([RIGHT_TO_LEFT, EMOJI].map(bytes));
    });

    it.each(FORBIDDEN)('refuses %s in parameters with a 400; nothing is charged, recorded or queued', async (_character, value) => {
      const jobsBefore = await jobCount(organizationId);
      const wallet = (await getServices().tenancy.repository.getWallet(organizationId))?.balanceMicros;
      const single = await post('/send-single', { ...template, countryCode: '91', toPhoneNumber: number(), templateParams: ['ok', value] });
      expect(single.status).toBe(400);
      const bulk = await post('/send-bulk', {
        ...template,
        broadcastName: `forbidden ${number()}`,
        globalTemplateParams: [value, 'b'],
        data: [{ countryCode: '91', toPhoneNumber: number() }],
      });
      expect(bulk.status).toBe(400);
      expect(await jobCount(organizationId)).toBe(jobsBefore);
      expect(await queueDepth(runtime)).toBe(0);
      expect((await getServices().tenancy.repository.getWallet(organizationId))?.balanceMicros).toBe(wallet);
    });
  });

  describe('when SQS fails at send', () => {
    it('answers 503, keeps the job marked as a failed accept, releases the Idempotency-Key, and a retry with the same key queues it: each recipient sent once', async () => {
      const sqs = getServices().clients.sqs;
      const realSend = sqs.send.bind(sqs);
      const spy = jest.spyOn(sqs, 'send').mockImplementation(((command: { constructor: { name: string } }, ...rest: unknown[]) => {
        if (command.constructor.name === 'SendMessageBatchCommand')
          return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { name: 'TimeoutError' }));
        return (realSend as (...args: unknown[]) => unknown)(command, ...rest);
      }) as never);
      const jobsBefore = await jobCount(organizationId);
      const data = recipients(1_001, { first: 9_660_000_000 });
      const apiKey = (await issueKey(organizationId)).secret;
      const send = () =>
        runtime.call('POST', `${BASE}/send-template-broadcast`, {
          headers: { ...keyHeader(apiKey), 'Idempotency-Key': 'sqs-down-1' },
          body: orderUpdate(data),
        });
      let failed;
      try {
        failed = await send();
      } finally {
        spy.mockRestore();
      }
      expect(failed.status).toBe(503);
      expect(JSON.stringify(failed.body)).not.toMatch(/ECONNREFUSED|SQS|stack/i);
      // Issue 23 item 2: once queueing has started the job is kept (a batch may be on the queue and
      // running), marked as a failed accept, so a retry with the same key lands on it.
      expect(await jobCount(organizationId)).toBe(jobsBefore + 1);
      const jobId = newJobId(randomIdGenerator, 'template', `${organizationId}\nsqs-down-1`);
      expect((await getServices().broadcast.broadcasts.getJob(jobId))?.acceptFailedAt).toEqual(expect.any(String));

      const retried = await send();
      expect(retried.status).toBe(202);
      expect(retried.body.data.jobId).toBe(jobId);
      expect(await jobCount(organizationId)).toBe(jobsBefore + 1);
      expect(await chunkProgressOf(getServices().broadcast.broadcasts, jobId)).toHaveLength(2);
      await runtime.workersIdle();
      await eventually(
        async () => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient.startsWith('9196600')),
        (messages) => messages.length === 1_001,
        30_000,
      );
    });
  });
});
