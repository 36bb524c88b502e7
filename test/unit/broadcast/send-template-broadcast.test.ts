import { CHUNK_SIZE } from '../../../shared/broadcast/broadcast-job';
import { encodeOutboundMessage, type TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import {
  DuplicateRecipientError,
  IdempotencyKeyInProgressError,
  IdempotencyKeyReusedError,
  RecipientNumberError,
  SenderNotOwnedError,
  TemplateMismatchError,
  TemplateNotApprovedError,
  TemplateNotFoundError,
  TemplateParameterCountError,
} from '../../../shared/broadcast/errors';
import { sendTemplateBroadcast, type BroadcastCaller, type SendTemplateBroadcastDependencies } from '../../../shared/broadcast/send-template-broadcast';
import type { TemplateBroadcastRequest } from '../../../shared/broadcast/template-broadcast.schema';
import { TemplateCatalog } from '../../../shared/broadcast/template-catalog';
import { fixedClock } from '../../../shared/ports/clock';
import { sequentialIdGenerator } from '../../../shared/ports/id-generator';
import {
  InMemoryUploadedMedia,
  InMemoryBroadcastRepository,
  InMemoryIdempotencyGuard,
  InMemorySenderDirectory,
  ORG,
  OTHER_ORG,
  RecordingOutboundQueue,
  SECOND_SENDER,
  SENDER,
  ScriptedCloudApi,
  broadcastRequest,
  recipientNumber,
  template,
  unlimitedMessaging,
} from '../../support/broadcast-fakes';
import { InboxSuppressionList } from '../../../shared/module-bridges/inbox-opt-outs';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';

function setup() {
  const clock = fixedClock('2026-03-01T09:00:00.000Z');
  const upstream = new ScriptedCloudApi(clock);
  upstream.templates.set(SENDER.wabaId, [
    template(),
    template({ id: 'tpl_1_pt', language: 'pt_BR' }),
    template({ id: 'tpl_2', name: 'promo', category: 'MARKETING', body: 'Sale! {{1}}' }),
    template({ id: 'tpl_3', name: 'pending_one', status: 'PENDING' }),
    template({ id: 'tpl_4', name: 'no_params', body: 'Hello there' }),
  ]);
  const broadcasts = new InMemoryBroadcastRepository();
  const queue = new RecordingOutboundQueue();
  const idempotency = new InMemoryIdempotencyGuard();
  const optOuts = new InMemoryOptOutRepository();
  const senders = new InMemorySenderDirectory([SENDER, SECOND_SENDER, { ...SENDER, organizationId: OTHER_ORG, phoneNumber: '447700900001' }]);
  const dependencies: SendTemplateBroadcastDependencies = {
    ids: sequentialIdGenerator(),
    senders,
    templates: new TemplateCatalog(upstream, clock),
    broadcasts,
    queue,
    idempotency,
    optOuts: new InboxSuppressionList(optOuts),
    media: new InMemoryUploadedMedia(),
    ...unlimitedMessaging(),
    clock,
  };
  const caller: BroadcastCaller = { organizationId: ORG };
  const send = (request: TemplateBroadcastRequest, options: { idempotencyKey?: string; caller?: BroadcastCaller } = {}) =>
    sendTemplateBroadcast(dependencies, options.caller ?? caller, request, { idempotencyKey: options.idempotencyKey, inProgressTimeoutMs: 20_000 });
  return { clock, upstream, broadcasts, queue, idempotency, senders, optOuts, dependencies, send };
}

type Setup = ReturnType<typeof setup>;

/** Nothing may be recorded or queued when a rule fails. */
const expectNothingAccepted = (kit: Setup) => {
  expect(kit.broadcasts.callsOf('createJob')).toBe(0);
  expect(kit.broadcasts.jobs.size).toBe(0);
  expect(kit.queue.batches).toHaveLength(0);
};

const withRecipient = (request: TemplateBroadcastRequest, index: number, recipient: TemplateBroadcastRequest['data'][number]) => {
  const data = [...request.data];
  data[index] = recipient;
  return { ...request, data };
};

describe('sendTemplateBroadcast: rules', () => {
  it('refuses a duplicate recipient naming both indexes, comparing full international numbers', async () => {
    const kit = setup();
    // data[3] is data[1] written with a leading trunk zero.
    const request = withRecipient(broadcastRequest(5), 3, { countryCode: '91', toPhoneNumber: `0${recipientNumber(1)}`, templateParams: ['a', 'b'] });
    const failure = kit.send(request);
    await expect(failure).rejects.toBeInstanceOf(DuplicateRecipientError);
    await expect(failure).rejects.toMatchObject({
      index: 3,
      firstIndex: 1,
      message: 'data[3] duplicates data[1]: each recipient may appear once; nothing was queued',
    });
    expectNothingAccepted(kit);
    expect(kit.senders.resolveCalls).toBe(0);
  });

  it('does not treat the same national number under another country code as a duplicate', async () => {
    const kit = setup();
    const request = withRecipient(broadcastRequest(3), 2, { countryCode: '44', toPhoneNumber: recipientNumber(0), templateParams: ['a', 'b'] });
    await expect(kit.send(request)).resolves.toEqual({ kind: 'queued', recipients: 3, jobId: expect.stringMatching(/^pub_/) });
  });

  it('refuses more than 15 digits of country code + number (after the trunk zero), and accepts exactly 15', async () => {
    const kit = setup();
    const tooLong = withRecipient(broadcastRequest(3), 2, { countryCode: '91', toPhoneNumber: '12345678901234', templateParams: ['a', 'b'] });
    const failure = kit.send(tooLong);
    await expect(failure).rejects.toBeInstanceOf(RecipientNumberError);
    await expect(failure).rejects.toThrow('data[2] countryCode and toPhoneNumber together must have at most 15 digits');
    expectNothingAccepted(kit);

    const fifteen = withRecipient(broadcastRequest(3), 2, { countryCode: '91', toPhoneNumber: '0123456789012', templateParams: ['a', 'b'] });
    await expect(kit.send(fifteen)).resolves.toEqual({ kind: 'queued', recipients: 3, jobId: expect.stringMatching(/^pub_/) });
    expect(kit.queue.messages[0]!.recipients[2]).toEqual({ index: 2, to: '91123456789012', parameters: ['a', 'b'] });
  });

  it('checks the length of every number (rule 2) before looking for duplicates (rule 3), as docs/BROADCAST.md orders them', async () => {
    const kit = setup();
    // A duplicate at data[2] and an overlong number at data[4]: the length rule answers.
    let request = withRecipient(broadcastRequest(6), 2, { countryCode: '91', toPhoneNumber: recipientNumber(0) });
    request = withRecipient(request, 4, { countryCode: '999', toPhoneNumber: '12345678901234' });
    await expect(kit.send(request)).rejects.toThrow(new RecipientNumberError('data[4] countryCode and toPhoneNumber together must have at most 15 digits'));
    // Two overlong numbers: the first one is named.
    request = withRecipient(request, 1, { countryCode: '999', toPhoneNumber: '12345678901234' });
    await expect(kit.send(request)).rejects.toThrow('data[1] countryCode');
    // Two duplicates: the first repeated index is named.
    request = withRecipient(broadcastRequest(6), 5, { countryCode: '91', toPhoneNumber: recipientNumber(1) });
    request = withRecipient(request, 3, { countryCode: '91', toPhoneNumber: recipientNumber(2) });
    await expect(kit.send(request)).rejects.toMatchObject({ index: 3, firstIndex: 2 });
    expectNothingAccepted(kit);
  });

  it('checks recipients before the sender, and the sender before templates', async () => {
    const kit = setup();
    const duplicateAndForeignSender = withRecipient(broadcastRequest(2, { fromPhoneNumber: '447700900001' }), 1, {
      countryCode: '91',
      toPhoneNumber: recipientNumber(0),
    });
    await expect(kit.send(duplicateAndForeignSender)).rejects.toBeInstanceOf(DuplicateRecipientError);
    await expect(kit.send(broadcastRequest(2, { fromPhoneNumber: '447700900001', templateName: 'nope' }))).rejects.toBeInstanceOf(SenderNotOwnedError);
    expect(kit.upstream.listTemplateCalls).toBe(0);
    expectNothingAccepted(kit);
  });

  it('answers a sender or template error before a failed opt-out read, and the opt-out failure once they pass', async () => {
    const kit = setup();
    const unavailable = new Error('opt-out store down');
    kit.dependencies.optOuts = { suppressedAmong: () => Promise.reject(unavailable) };
    await expect(kit.send(broadcastRequest(2, { fromPhoneNumber: '447700900001' }))).rejects.toBeInstanceOf(SenderNotOwnedError);
    await expect(kit.send(broadcastRequest(2, { templateName: 'nope' }))).rejects.toBeInstanceOf(TemplateNotFoundError);
    await expect(kit.send(broadcastRequest(2))).rejects.toBe(unavailable);
    expectNothingAccepted(kit);
  });

  it('refuses an unknown template name', async () => {
    const kit = setup();
    const failure = kit.send(broadcastRequest(2, { templateName: 'missing' }));
    await expect(failure).rejects.toBeInstanceOf(TemplateNotFoundError);
    await expect(failure).rejects.toThrow(`templateName missing is not a template of sender ${SENDER.phoneNumber}`);
    expectNothingAccepted(kit);
  });

  it('refuses a language the template does not have, listing the available ones', async () => {
    const kit = setup();
    const failure = kit.send(broadcastRequest(2, { templateLanguage: 'de' }));
    await expect(failure).rejects.toBeInstanceOf(TemplateNotFoundError);
    await expect(failure).rejects.toThrow('templateLanguage de is not available for template order_update (available: en_US, pt_BR)');
    expectNothingAccepted(kit);
  });

  it('refuses a template that is not APPROVED', async () => {
    const kit = setup();
    const failure = kit.send(broadcastRequest(2, { templateName: 'pending_one' }));
    await expect(failure).rejects.toBeInstanceOf(TemplateNotApprovedError);
    await expect(failure).rejects.toThrow('template pending_one (en_US) is PENDING; only APPROVED templates can be sent');
    expectNothingAccepted(kit);
  });

  it('refuses a templateType that is not the template category', async () => {
    const kit = setup();
    const failure = kit.send(broadcastRequest(2, { templateType: 'MARKETING' }));
    await expect(failure).rejects.toBeInstanceOf(TemplateMismatchError);
    await expect(failure).rejects.toThrow('templateType MARKETING does not match the category of template order_update (UTILITY)');
    expectNothingAccepted(kit);
  });

  it('refuses a templateId of another template, and accepts the right one', async () => {
    const kit = setup();
    const failure = kit.send(broadcastRequest(2, { templateId: 'tpl_2' }));
    await expect(failure).rejects.toBeInstanceOf(TemplateMismatchError);
    await expect(failure).rejects.toThrow('templateId tpl_2 does not identify template order_update (en_US)');
    expectNothingAccepted(kit);
    await expect(kit.send(broadcastRequest(2, { templateLanguage: 'pt_BR', templateId: 'tpl_1_pt' }))).resolves.toEqual({
      kind: 'queued',
      recipients: 2,
      jobId: expect.stringMatching(/^pub_/),
    });
    expect(kit.broadcasts.jobs.values().next().value).toMatchObject({ kind: 'template' });
    expect((kit.broadcasts.jobs.values().next().value as { template?: unknown }).template).toEqual({
      name: 'order_update',
      language: 'pt_BR',
      category: 'UTILITY',
      id: 'tpl_1_pt',
    });
  });

  it('checks the language before the approval status and the status before the category', async () => {
    const kit = setup();
    await expect(kit.send(broadcastRequest(2, { templateName: 'pending_one', templateLanguage: 'xx', templateType: 'MARKETING' }))).rejects.toBeInstanceOf(
      TemplateNotFoundError,
    );
    await expect(kit.send(broadcastRequest(2, { templateName: 'pending_one', templateType: 'MARKETING' }))).rejects.toBeInstanceOf(TemplateNotApprovedError);
  });

  it('refuses a recipient whose own parameters do not fill the placeholders', async () => {
    const kit = setup();
    const request = broadcastRequest(4, { globalTemplateParams: ['g1', 'g2'] }, (index) => (index === 2 ? ['only one'] : undefined));
    const failure = kit.send(request);
    await expect(failure).rejects.toBeInstanceOf(TemplateParameterCountError);
    await expect(failure).rejects.toThrow('data[2].templateParams has 1 values; template order_update needs exactly 2 ({{1}}..{{2}})');
    expectNothingAccepted(kit);
  });

  it('refuses global parameters that do not fill the placeholders, naming the first recipient using them', async () => {
    const kit = setup();
    const request = broadcastRequest(3, { globalTemplateParams: ['g1', 'g2', 'g3'] }, (index) => (index === 0 ? ['a', 'b'] : undefined));
    await expect(kit.send(request)).rejects.toThrow('globalTemplateParams (used by data[1]) has 3 values; template order_update needs exactly 2');
    expectNothingAccepted(kit);
  });

  it('refuses a recipient with no parameters at all when the template has placeholders', async () => {
    const kit = setup();
    const request = broadcastRequest(3, {}, (index) => (index === 1 ? undefined : ['a', 'b']));
    await expect(kit.send(request)).rejects.toThrow(
      'data[1] has no templateParams and no globalTemplateParams: 0 values; template order_update needs exactly 2',
    );
    expectNothingAccepted(kit);
  });

  it('sends own parameters before global ones, and none to a template without placeholders', async () => {
    const kit = setup();
    const request = broadcastRequest(3, { globalTemplateParams: ['g1', 'g2'] }, (index) => (index === 1 ? ['own1', 'own2'] : undefined));
    await kit.send(request);
    expect(kit.queue.messages[0]!.recipients.map(({ parameters }) => parameters)).toEqual([
      ['g1', 'g2'],
      ['own1', 'own2'],
      ['g1', 'g2'],
    ]);

    await kit.send(broadcastRequest(2, { templateName: 'no_params', broadcastName: 'plain' }, () => undefined));
    expect(kit.queue.messages[1]!.recipients.map(({ parameters }) => parameters)).toEqual([[], []]);
    await expect(kit.send(broadcastRequest(2, { templateName: 'no_params' }, () => ['extra']))).rejects.toBeInstanceOf(TemplateParameterCountError);
  });

  it('refuses a key bound to another sender before anything else', async () => {
    const kit = setup();
    const request = withRecipient(broadcastRequest(2), 1, { countryCode: '91', toPhoneNumber: recipientNumber(0) });
    const failure = kit.send(request, {
      caller: { organizationId: ORG, scope: { kind: 'sender', phoneNumber: SECOND_SENDER.phoneNumber } },
      idempotencyKey: 'k1',
    });
    await expect(failure).rejects.toBeInstanceOf(SenderNotOwnedError);
    await expect(failure).rejects.toThrow(`Phone number ${SENDER.phoneNumber} is not a sender of this organization`);
    expect(kit.idempotency.records.size).toBe(0);
    expectNothingAccepted(kit);
    // The bound sender itself is fine.
    await expect(
      kit.send(broadcastRequest(2, { fromPhoneNumber: SECOND_SENDER.phoneNumber }), {
        caller: { organizationId: ORG, scope: { kind: 'sender', phoneNumber: SECOND_SENDER.phoneNumber } },
      }),
    ).resolves.toEqual({ kind: 'queued', recipients: 2, jobId: expect.stringMatching(/^pub_/) });
  });
});

describe('sendTemplateBroadcast: chunking and the job', () => {
  const chunkMessagesOf = (kit: Setup) => kit.queue.messages as TemplateChunkMessage[];

  it('queues 1,000 recipients as one chunk and answers queued', async () => {
    const kit = setup();
    await expect(kit.send(broadcastRequest(1000))).resolves.toEqual({ kind: 'queued', recipients: 1000, jobId: expect.stringMatching(/^pub_/) });
    const [job] = [...kit.broadcasts.jobs.values()];
    expect(job).toMatchObject({ exposed: false, totalRecipients: 1000, totalChunks: 1, chunkSize: CHUNK_SIZE, createdAt: '2026-03-01T09:00:00.000Z' });
    expect(chunkMessagesOf(kit)).toHaveLength(1);
    await expect(kit.broadcasts.getChunkProgress(job!.jobId)).resolves.toHaveLength(1);
  });

  it('splits 1,001 recipients into chunks of 1,000 and 1 and answers with a job', async () => {
    const kit = setup();
    const result = await kit.send(broadcastRequest(1001));
    expect(result).toEqual({
      kind: 'job',
      jobId: expect.stringMatching(/^pub_[A-Za-z0-9_-]{22}$/),
      status: 'PROCESSING',
      totalRecipients: 1001,
      chunkSize: 1000,
      totalChunks: 2,
    });
    const messages = chunkMessagesOf(kit);
    expect(messages.map((message) => [message.chunkIndex, message.recipients.length])).toEqual([
      [0, 1000],
      [1, 1],
    ]);
    expect(messages[1]!.recipients[0]).toEqual({ index: 1000, to: `91${recipientNumber(1000)}`, parameters: ['Name1000', 'Order1000'] });
    const progress = await kit.broadcasts.getChunkProgress(result.kind === 'job' ? result.jobId : '');
    expect(progress.map((chunk) => chunk.recipientCount)).toEqual([1000, 1]);
  });

  it('splits 10,000 recipients into 10 chunks keeping order, indexes and the message envelope', async () => {
    const kit = setup();
    const result = await kit.send(broadcastRequest(10_000));
    expect(result).toMatchObject({ kind: 'job', totalChunks: 10, totalRecipients: 10_000 });
    const messages = chunkMessagesOf(kit);
    expect(messages).toHaveLength(10);
    messages.forEach((message, chunkIndex) => {
      expect(message).toMatchObject({
        kind: 'template-chunk',
        version: 1,
        jobId: result.kind === 'job' ? result.jobId : '',
        organizationId: ORG,
        chunkIndex,
        wabaId: SENDER.wabaId,
        phoneNumberId: SENDER.phoneNumberId,
        template: { name: 'order_update', language: 'en_US' },
      });
      expect(message.recipients).toHaveLength(1000);
    });
    const all = messages.flatMap((message) => message.recipients);
    expect(all.map(({ index }) => index)).toEqual(Array.from({ length: 10_000 }, (_, index) => index));
    expect(all.every(({ index, to }) => to === `91${recipientNumber(index)}`)).toBe(true);
    // Created before anything was queued, so a worker always finds it.
    expect(kit.broadcasts.callsOf('createJob')).toBe(1);
  });

  it('splits a chunk with large parameters into several messages of the same chunk index', async () => {
    const kit = setup();
    const big = 'x'.repeat(1000);
    await kit.send(broadcastRequest(1000, {}, (index) => [big, `o${index}`]));
    const messages = chunkMessagesOf(kit);
    expect(messages.length).toBeGreaterThan(1);
    expect(new Set(messages.map((message) => message.chunkIndex))).toEqual(new Set([0]));
    expect(messages.flatMap((message) => message.recipients.map(({ index }) => index))).toEqual(Array.from({ length: 1000 }, (_, index) => index));
    for (const message of messages) expect(Buffer.byteLength(encodeOutboundMessage(message))).toBeLessThanOrEqual(200 * 1024);
    // Still one chunk of 1,000 in the progress records.
    expect([...kit.broadcasts.chunks.values()].map((chunk) => chunk.recipientCount)).toEqual([1000]);
  });

  it('derives the job id from organization + Idempotency-Key, and draws a random one without a key', async () => {
    const first = setup();
    const second = setup();
    const a = await first.send(broadcastRequest(1001), { idempotencyKey: 'key-1' });
    const b = await second.send(broadcastRequest(1001), { idempotencyKey: 'key-1' });
    const otherKey = await second.send(broadcastRequest(1001), { idempotencyKey: 'key-2' });
    const otherOrg = await second.send(broadcastRequest(1001, { fromPhoneNumber: '447700900001' }), {
      idempotencyKey: 'key-1',
      caller: { organizationId: OTHER_ORG },
    });
    const jobIdOf = (result: typeof a) => (result.kind === 'job' ? result.jobId : undefined);
    expect(jobIdOf(a)).toBeDefined();
    expect(jobIdOf(a)).toBe(jobIdOf(b));
    expect(jobIdOf(otherKey)).not.toBe(jobIdOf(a));
    expect(jobIdOf(otherOrg)).not.toBe(jobIdOf(a));

    const random1 = await first.send(broadcastRequest(1001));
    const random2 = await first.send(broadcastRequest(1001));
    expect(jobIdOf(random1)).toMatch(/^pub_[A-Za-z0-9_-]{22}$/);
    expect(jobIdOf(random1)).not.toBe(jobIdOf(random2));
  });

  it("with a key, reads an earlier attempt's job while the checks run (before the sender is resolved), not after them", async () => {
    const kit = setup();
    const readsBeforeSender: number[] = [];
    const resolve = kit.senders.resolveSender.bind(kit.senders);
    kit.senders.resolveSender = async (...args) => {
      readsBeforeSender.push(kit.broadcasts.callsOf('getJob'));
      return resolve(...args);
    };
    await expect(kit.send(broadcastRequest(1001), { idempotencyKey: 'key-1' })).resolves.toMatchObject({ kind: 'job' });
    await kit.send(broadcastRequest(1001));
    // Keyed: the read had started; without a key there is no earlier attempt to read.
    expect(readsBeforeSender).toEqual([1, 1]);
    expect(kit.broadcasts.callsOf('getJob')).toBe(1);
  });

  it('with a key, a failed read of the earlier job still yields to a failed check, and fails the accept where the read was awaited', async () => {
    const kit = setup();
    kit.broadcasts.failWhen = (method) => (method === 'getJob' ? new Error('store down') : undefined);
    await expect(kit.send(broadcastRequest(3, { templateName: 'missing' }), { idempotencyKey: 'key-1' })).rejects.toBeInstanceOf(TemplateNotFoundError);
    await expect(kit.send(broadcastRequest(3), { idempotencyKey: 'key-2' })).rejects.toThrow('store down');
    expectNothingAccepted(kit);
  });

  it('replays the first answer for the same key and body, and refuses the key with another body', async () => {
    const kit = setup();
    const first = await kit.send(broadcastRequest(1001), { idempotencyKey: 'key-1' });
    const replay = await kit.send(broadcastRequest(1001), { idempotencyKey: 'key-1' });
    // Changed on purpose (issue 27): the replay is the first answer, marked as a replay (the Idempotent-Replayed header).
    expect(first).not.toHaveProperty('replayed');
    expect(replay).toEqual({ ...first, replayed: true });
    expect(kit.queue.batches).toHaveLength(1);
    expect(kit.idempotency.records.has(`broadcast#${ORG}#key-1`)).toBe(true);
    await expect(kit.send(broadcastRequest(1002), { idempotencyKey: 'key-1' })).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(kit.queue.batches).toHaveLength(1);
  });

  it('answers in progress while the first request with the key is running', async () => {
    const kit = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const original = kit.upstream.listTemplates.bind(kit.upstream);
    kit.upstream.listTemplates = async (...args) => {
      await gate;
      return original(...args);
    };
    const first = kit.send(broadcastRequest(3), { idempotencyKey: 'slow' });
    await expect(kit.send(broadcastRequest(3), { idempotencyKey: 'slow' })).rejects.toBeInstanceOf(IdempotencyKeyInProgressError);
    release();
    await expect(first).resolves.toEqual({ kind: 'queued', recipients: 3, jobId: expect.stringMatching(/^pub_/) });
  });

  it('records nothing when the template read fails', async () => {
    const kit = setup();
    kit.upstream.listTemplatesFailure = new Error('graph down');
    await expect(kit.send(broadcastRequest(3))).rejects.toThrow('graph down');
    expectNothingAccepted(kit);
  });
});
