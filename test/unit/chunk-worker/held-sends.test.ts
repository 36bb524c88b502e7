/**
 * Template pacing: Meta accepts a send but holds it for quality assessment
 * (`messages[0].message_status: held_for_quality_assessment`). The worker records it SENT with
 * `held`, sends it never again, and the job reads it HELD (summary `held`, the recipients list)
 * until a status webhook settles it.
 */
import { tallyCodeOfOutcome } from '../../../shared/broadcast/chunk-outcomes';
import { getJobStatus } from '../../../shared/broadcast/get-job-status';
import { listRecipients } from '../../../shared/broadcast/list-recipients';
import { recipientStatusOf, tallyCodes } from '../../../shared/delivery/recipient-status';
import { classifyGraphAnswer, sendOutcomeOf } from '../../../shared/sending/graph-answer';
import { ORG, accepted, chunkMessage } from '../../support/broadcast-fakes';
import { FakeLedgerDeliveryStore } from '../../support/delivery-fakes';
import { setup, statusCounts } from './chunk-worker-kit';

const held = (messageId: string) => ({ ...accepted(messageId), held: true as const });

describe('the held_for_quality_assessment answer', () => {
  it('is read by the one classifier: accepted, held', () => {
    const answer = classifyGraphAnswer({
      kind: 'answered',
      httpStatus: 200,
      body: { messages: [{ id: 'wamid.1', message_status: 'held_for_quality_assessment' }] },
    });
    expect(answer).toEqual({ outcome: 'accepted', messageId: 'wamid.1', held: true });
    expect(sendOutcomeOf(answer)).toEqual({ kind: 'accepted', messageId: 'wamid.1', held: true });
    expect(classifyGraphAnswer({ kind: 'answered', httpStatus: 200, body: { messages: [{ id: 'wamid.2', message_status: 'accepted' }] } })).toEqual({
      outcome: 'accepted',
      messageId: 'wamid.2',
    });
  });

  it('is recorded SENT with held, counted in the summary’s held and listed HELD, never sent again', async () => {
    const kit = setup();
    const message = chunkMessage(3);
    await kit.createJob(message);
    kit.upstream.script(message.recipients[1]!.to, held('wamid.held'));
    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 3, failed: 0, chunkDone: true });
    expect(kit.upstream.sendsTo(message.recipients[1]!.to)).toHaveLength(1);
    const entries = kit.broadcasts.entriesOf(message.jobId, 0);
    expect(statusCounts(entries)).toEqual({ SENT: 3 });
    expect(entries.find((entry) => entry.index === 1)).toMatchObject({ status: 'SENT', messageId: 'wamid.held', held: true });
    expect(entries.filter((entry) => entry.held)).toHaveLength(1);

    // This fake keeps no tally: write the codes the DynamoDB ledger writes with each outcome.
    for (const entry of entries) kit.broadcasts.recordDelivery(message.jobId, 0, entry.index, {}, tallyCodeOfOutcome(entry));
    expect(tallyCodeOfOutcome(entries.find((entry) => entry.index === 1)!)).toBe(tallyCodes.held);
    const reading = { now: kit.time.now(), unconfirmedAfterMs: 24 * 3_600_000 };
    const view = await getJobStatus(kit.broadcasts, { organizationId: ORG }, message.jobId, reading);
    expect(view.summary).toMatchObject({ sent: 2, held: 1, failed: 0, pending: 0 });
    const rows = (await listRecipients(kit.broadcasts, { organizationId: ORG }, message.jobId, {}, reading)).recipients;
    expect(rows.map((row) => row.status)).toEqual(['SENT', 'HELD', 'SENT']);
    expect(rows[1]).toMatchObject({ messageId: 'wamid.held', failureReasonCode: null });
    const filtered = await listRecipients(kit.broadcasts, { organizationId: ORG }, message.jobId, { status: 'HELD' }, reading);
    expect(filtered.recipients).toHaveLength(1);
  });
});

describe('a held recipient settled by webhooks', () => {
  const outcome = { status: 'SENT' as const, updatedAt: '2026-03-01T09:00:00.000Z', held: true };
  const now = new Date('2026-03-01T10:00:00.000Z');
  it('reads HELD until an event, then by the usual precedence', () => {
    expect(recipientStatusOf(outcome, {}, now)).toBe('HELD');
    expect(recipientStatusOf(outcome, { sentAt: 'x' }, now)).toBe('SENT');
    expect(recipientStatusOf(outcome, { failedAt: 'x', metaErrorCode: 132015 }, now)).toBe('FAILED');
    expect(recipientStatusOf(outcome, { deliveredAt: 'x' }, now)).toBe('DELIVERED');
    expect(recipientStatusOf({ ...outcome, held: false }, {}, now)).toBe('SENT');
  });

  it('has a tally code below every event’s, so any webhook moves it out of held, once', async () => {
    for (const [stage, expected] of [
      ['sent', { sent: 1, held: 0 }],
      ['failed', { failed: 1, held: 0 }],
      ['read', { read: 1, sent: 1, held: 0 }],
    ] as const) {
      const ledger = new FakeLedgerDeliveryStore();
      ledger.addJob('job_h', ORG, 'pn');
      ledger.addEntry('job_h', 0, 0, { status: 'SENT', held: true, updatedAt: now.toISOString(), messageId: 'wamid.h', tallyCode: tallyCodes.held });
      expect(ledger.countsOf('job_h', now)).toMatchObject({ held: 1, sent: 0, accounted: 1 });
      const event = {
        messageId: 'wamid.h',
        stage,
        timestamp: now,
        recipientId: '1',
        ...(stage === 'failed' ? { error: { code: 132015, title: 'Template paused' } } : {}),
      };
      await ledger.applyEvents('job_h', [{ location: { jobId: 'job_h', chunkIndex: 0, index: 0 }, event }]);
      await ledger.applyEvents('job_h', [{ location: { jobId: 'job_h', chunkIndex: 0, index: 0 }, event }]);
      expect(ledger.countsOf('job_h', now)).toMatchObject({ ...expected, accounted: 1 });
    }
    expect(tallyCodes.held > tallyCodes.unknown(now) && tallyCodes.held < tallyCodes.sent).toBe(true);
  });
});
