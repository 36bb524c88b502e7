/**
 * The chunk worker and the Marketing Messages API (shared/broadcast/chunk-worker/send-api.ts): a
 * message whose template carries `api: 'marketing_messages'` is sent through `/marketing_messages`
 * with `product_policy`, one without it through `/messages`; a refusal of the template by the API
 * (131055, 134100, 134101, 134102) sends the recipient through `/messages` at once and the rest of
 * the invocation too; the ledger records which API carried each message.
 */
import { SendApiChoice } from '../../../shared/broadcast/chunk-worker/send-api';
import { SENDER, accepted, chunkMessage, rejected, unknownOutcome } from '../../support/broadcast-fakes';
import { setup, statusCounts } from './chunk-worker-kit';

const marketingChunk = (count: number) => chunkMessage(count, { template: { name: 'order_update', language: 'en_US', api: 'marketing_messages' } });

describe('chunk worker: which API carries the message', () => {
  it('sends a marketing_messages job through /marketing_messages with CLOUD_API_FALLBACK and records sentVia', async () => {
    const kit = setup();
    const message = marketingChunk(6);
    await kit.createJob(message);
    const report = await kit.run(message);

    expect(report).toEqual({ sent: 6, failed: 0, unknown: 0, skipped: 0, continued: 0, chunkDone: true });
    expect(kit.upstream.sends).toHaveLength(6);
    for (const send of kit.upstream.sends) {
      expect(send).toMatchObject({ api: 'marketing_messages', phoneNumberId: SENDER.phoneNumberId, accessToken: SENDER.accessToken });
      // The same body as /messages (callback data included), plus the policy.
      expect(send.body).toMatchObject({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        type: 'template',
        product_policy: 'CLOUD_API_FALLBACK',
        biz_opaque_callback_data: expect.stringMatching(/^b1:/),
      });
    }
    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 6 });
    expect(entries.every((entry) => entry.sentVia === 'marketing_messages')).toBe(true);
  });

  it('sends a message without a route (every message queued before it, and every other job) through /messages, no policy, no sentVia', async () => {
    const kit = setup();
    const message = chunkMessage(3);
    await kit.createJob(message);
    await kit.run(message);
    expect(kit.upstream.sends.map((send) => send.api)).toEqual([undefined, undefined, undefined]);
    expect(kit.upstream.sends.every((send) => !('product_policy' in send.body))).toBe(true);
    expect(kit.broadcasts.entriesOf(message.jobId, 0).every((entry) => entry.status === 'SENT' && !('sentVia' in entry))).toBe(true);
  });

  it.each([
    ['131055 (only marketing templates)', 131055, 400],
    ['134100 (only marketing messages)', 134100, 400],
    ['134101 (template still syncing)', 134101, 400],
    ["134102 (template unavailable, Meta's HTTP 500)", 134102, 500],
  ])(
    'answers a refusal of the template with %s by sending the recipient through /messages at once, and the rest of the invocation too',
    async (_name, code, httpStatus) => {
      const kit = setup({ settings: { maxInFlight: 1 } });
      const message = marketingChunk(4);
      await kit.createJob(message);
      const first = message.recipients[0]!.to;
      kit.upstream.scriptMarketing(first, rejected(code, httpStatus));
      const report = await kit.run(message);

      expect(report).toMatchObject({ sent: 4, failed: 0, unknown: 0, chunkDone: true, marketingFallbacks: 1 });
      // One refused call through the API, then Cloud API for everyone: no recipient twice through one endpoint, nobody lost.
      expect(kit.upstream.sendsTo(first).map((send) => send.api ?? 'messages')).toEqual(['marketing_messages', 'messages']);
      expect(kit.upstream.sendsTo(first)[1]!.body).not.toHaveProperty('product_policy');
      for (const { to } of message.recipients.slice(1)) expect(kit.upstream.sendsTo(to).map((send) => send.api ?? 'messages')).toEqual(['messages']);
      const entries = kit.broadcasts.entriesOf(message.jobId, 0);
      expect(statusCounts(entries)).toEqual({ SENT: 4 });
      expect(entries.some((entry) => 'sentVia' in entry)).toBe(false);
      // The refused call and the resend are one attempt: nothing was sent by the first.
      expect(entries.find((entry) => entry.to === first)!.attempts).toBe(1);
    },
  );

  it('tries the API again in the next invocation (a template that finished syncing moves over)', async () => {
    const kit = setup({ settings: { maxInFlight: 1 } });
    const message = marketingChunk(2);
    await kit.createJob(message, [2, 2]);
    kit.upstream.scriptMarketing(message.recipients[0]!.to, rejected(134101));
    await kit.run(message);
    const next = {
      ...message,
      chunkIndex: 1,
      recipients: [2, 3].map((index) => ({ index, to: `9198${String(index).padStart(8, '0')}`, parameters: ['Name'] })),
    };
    await kit.run(next);
    expect(kit.upstream.sends.filter((send) => next.recipients.some(({ to }) => to === send.to)).map((send) => send.api)).toEqual([
      'marketing_messages',
      'marketing_messages',
    ]);
    expect(kit.broadcasts.entriesOf(message.jobId, 1).every((entry) => entry.sentVia === 'marketing_messages')).toBe(true);
  });

  it('does not fall back on a refusal about the recipient, nor on an unknown outcome (it may have been sent)', async () => {
    const kit = setup({ settings: { maxInFlight: 1 } });
    const message = marketingChunk(3);
    await kit.createJob(message);
    const [undeliverable, timedOut, fine] = message.recipients.map(({ to }) => to);
    kit.upstream.scriptMarketing(undeliverable!, rejected(131026));
    kit.upstream.scriptMarketing(timedOut!, unknownOutcome('timeout'));
    const report = await kit.run(message);

    expect(report).toMatchObject({ sent: 1, failed: 1, unknown: 1 });
    expect(report).not.toHaveProperty('marketingFallbacks');
    expect(kit.upstream.sends.map((send) => send.api)).toEqual(['marketing_messages', 'marketing_messages', 'marketing_messages']);
    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(entries.find((entry) => entry.to === fine)).toMatchObject({ status: 'SENT', sentVia: 'marketing_messages' });
    // Only a message Meta accepted says which API carried it.
    expect(entries.filter((entry) => entry.status !== 'SENT').some((entry) => 'sentVia' in entry)).toBe(false);
  });

  it("records the Cloud API's own answer when the resend after a fallback fails", async () => {
    const kit = setup({ settings: { maxInFlight: 1 } });
    const message = marketingChunk(1);
    await kit.createJob(message);
    const { to } = message.recipients[0]!;
    kit.upstream.scriptMarketing(to, rejected(134100));
    kit.upstream.script(to, rejected(132001, 404));
    await kit.run(message);
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toEqual([expect.objectContaining({ status: 'FAILED', failureReasonCode: '132001' })]);
  });
});

describe('SendApiChoice', () => {
  it("starts from the message's route and stays on Cloud API after the first refusal", async () => {
    const upstream = { sendMessage: jest.fn().mockResolvedValueOnce(rejected(134101)).mockResolvedValue(accepted('wamid.x')) };
    const choice = SendApiChoice.of(marketingChunk(1));
    expect(choice.current).toBe('marketing_messages');
    expect(await choice.send(upstream, 'pn_1', { to: '1' }, { accessToken: 't' })).toEqual({ outcome: accepted('wamid.x'), via: 'cloud_api' });
    expect(choice.current).toBe('cloud_api');
    expect(upstream.sendMessage.mock.calls).toEqual([
      ['pn_1', { to: '1', product_policy: 'CLOUD_API_FALLBACK' }, { accessToken: 't' }, { api: 'marketing_messages' }],
      ['pn_1', { to: '1' }, { accessToken: 't' }],
    ]);
    expect(SendApiChoice.of(chunkMessage(1)).current).toBe('cloud_api');
  });
});
