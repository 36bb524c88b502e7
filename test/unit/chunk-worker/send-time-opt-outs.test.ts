/**
 * The chunk worker's send-time opt-out check (shared/broadcast/chunk-worker/send-time-opt-outs.ts):
 * a recipient who opted out after the accept is claimed FAILED OPTED_OUT and never sent, matched
 * by opt-out key, with one read of the list per message, and nothing is sent unchecked.
 */
import type { FreeformChunkMessage } from '../../../shared/broadcast/chunk-message';
import { processOutboundChunk } from '../../../shared/broadcast/chunk-worker/process-outbound-chunk';
import { chunkMessage, ORG } from '../../support/broadcast-fakes';
import { START, setup, statusCounts } from './chunk-worker-kit';

const optOut = (kit: ReturnType<typeof setup>, phoneNumber: string, organizationId = ORG) =>
  kit.optOuts.seed(organizationId, { phoneNumber, source: 'keyword', createdAt: START });

describe('the send-time opt-out check', () => {
  it('claims a recipient on the list FAILED OPTED_OUT (no attempt), never sends it, counts and records it; one read for the message', async () => {
    const kit = setup();
    const message = chunkMessage(6);
    await kit.createJob(message);
    const [second, fifth] = [message.recipients[1]!, message.recipients[4]!];
    optOut(kit, second.to);
    optOut(kit, fifth.to);
    // Another organization's list is not this one's.
    optOut(kit, message.recipients[0]!.to, 'org_other');
    const reads = jest.spyOn(kit.dependencies.optOuts, 'suppressedAmong');

    const report = await kit.run(message);

    expect(report).toEqual({ sent: 4, failed: 2, unknown: 0, skipped: 0, continued: 0, chunkDone: true });
    expect(reads).toHaveBeenCalledTimes(1);
    expect(reads).toHaveBeenCalledWith(
      ORG,
      message.recipients.map(({ to }) => to),
    );
    expect(kit.upstream.sendsTo(second.to)).toHaveLength(0);
    expect(kit.upstream.sendsTo(fifth.to)).toHaveLength(0);
    expect(kit.upstream.sends).toHaveLength(4);
    for (const { index, to } of [second, fifth]) {
      expect(kit.broadcasts.entry(message.jobId, 0, index)).toMatchObject({ index, to, status: 'FAILED', failureReasonCode: 'OPTED_OUT', attempts: 0 });
    }
    expect(statusCounts(kit.broadcasts.entriesOf(message.jobId, 0))).toEqual({ SENT: 4, FAILED: 2 });
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ sent: 4, failed: 2, failuresByReason: { OPTED_OUT: 2 }, doneAt: expect.any(String) });
  });

  it('matches by opt-out key: a STOP under the Brazilian wa_id (no ninth digit) or the Mexican 52 form stops the dialled form', async () => {
    const kit = setup();
    const message = chunkMessage(3, {
      recipients: [
        { index: 0, to: '5581988887777', parameters: ['Ana'] },
        { index: 1, to: '5215512345678', parameters: ['Luis'] },
        { index: 2, to: '5511987654321', parameters: ['Bia'] },
      ],
    });
    await kit.createJob(message);
    optOut(kit, '558188887777');
    optOut(kit, '525512345678');

    const report = await kit.run(message);

    expect(report).toMatchObject({ sent: 1, failed: 2 });
    expect(kit.upstream.sends.map((send) => send.to)).toEqual(['5511987654321']);
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ failuresByReason: { OPTED_OUT: 2 } });
  });

  it('sends a business-scoped user id with `recipient` (no `to`), and checks it against opt-outs keyed by that id', async () => {
    const kit = setup();
    const message = chunkMessage(3, {
      recipients: [
        { index: 0, to: 'US.13491208655302741918', parameters: ['Ana'] },
        { index: 1, to: 'US.ENT.11815799212886844830', parameters: ['Luis'] },
        { index: 2, to: '5511987654321', parameters: ['Bia'] },
      ],
    });
    await kit.createJob(message);
    optOut(kit, 'US.ENT.11815799212886844830');

    const report = await kit.run(message);

    expect(report).toMatchObject({ sent: 2, failed: 1 });
    const [toUser] = kit.upstream.sendsTo('US.13491208655302741918');
    expect(toUser!.body).toMatchObject({ recipient: 'US.13491208655302741918', recipient_type: 'individual', type: 'template' });
    expect(toUser!.body).not.toHaveProperty('to');
    expect(kit.upstream.sendsTo('5511987654321')[0]!.body).toMatchObject({ to: '5511987654321' });
    expect(kit.upstream.sendsTo('US.ENT.11815799212886844830')).toHaveLength(0);
    expect(kit.broadcasts.entry(message.jobId, 0, 1)).toMatchObject({ to: 'US.ENT.11815799212886844830', status: 'FAILED', failureReasonCode: 'OPTED_OUT' });
  });

  it('reads the list again in each invocation: a continuation (or a held message resumed) sees an opt-out made after the first part', async () => {
    const kit = setup();
    const message = chunkMessage(6);
    await kit.createJob(message);
    const first = { ...message, recipients: message.recipients.slice(0, 3) };
    const rest = { ...message, recipients: message.recipients.slice(3) };
    const reads = jest.spyOn(kit.dependencies.optOuts, 'suppressedAmong');
    await kit.run(first);
    optOut(kit, message.recipients[4]!.to);

    const report = await kit.run(rest);

    expect(reads).toHaveBeenCalledTimes(2);
    expect(report).toMatchObject({ sent: 2, failed: 1, chunkDone: true });
    expect(kit.upstream.sendsTo(message.recipients[4]!.to)).toHaveLength(0);
    expect(kit.broadcasts.chunk(message.jobId, 0)).toMatchObject({ sent: 5, failed: 1, failuresByReason: { OPTED_OUT: 1 } });
  });

  it('leaves a recipient already claimed by an earlier delivery as it is (skipped), whatever the list says now', async () => {
    const kit = setup();
    const message = chunkMessage(3);
    await kit.createJob(message);
    await kit.run(message);
    optOut(kit, message.recipients[0]!.to);

    const again = await kit.run(message);

    expect(again).toMatchObject({ sent: 0, failed: 0, skipped: 3 });
    expect(kit.broadcasts.entry(message.jobId, 0, 0)).toMatchObject({ status: 'SENT' });
  });

  it('sends nothing and claims nobody when the list cannot be read: the message is retried', async () => {
    const kit = setup();
    const message = chunkMessage(4);
    await kit.createJob(message);
    jest.spyOn(kit.dependencies.optOuts, 'suppressedAmong').mockRejectedValue(new Error('inbox store unavailable'));

    await expect(kit.run(message)).rejects.toThrow('inbox store unavailable');

    expect(kit.upstream.sends).toHaveLength(0);
    expect(kit.broadcasts.entriesOf(message.jobId, 0)).toEqual([]);
  });

  it('does not check free-form messages (sent only inside the customer-service window, as at accept time)', async () => {
    const kit = setup();
    const template = chunkMessage(1);
    const message: FreeformChunkMessage = {
      kind: 'freeform',
      version: 1,
      jobId: template.jobId,
      organizationId: ORG,
      chunkIndex: 0,
      wabaId: template.wabaId,
      phoneNumberId: template.phoneNumberId,
      body: { messaging_product: 'whatsapp', type: 'text', text: { body: 'Your order shipped' } },
      recipients: template.recipients,
    };
    await kit.createJob(template);
    optOut(kit, template.recipients[0]!.to);
    const reads = jest.spyOn(kit.dependencies.optOuts, 'suppressedAmong');

    await kit.time.run(() => processOutboundChunk(kit.dependencies, message, { remainingTimeMs: () => 120_000 }));

    expect(reads).not.toHaveBeenCalled();
    expect(kit.upstream.sendsTo(template.recipients[0]!.to)).toHaveLength(1);
  });
});
