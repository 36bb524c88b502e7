import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { sendTemplateBroadcast } from '../../../shared/broadcast/send-template-broadcast';
import { fixedClock } from '../../../shared/ports/clock';
import { ORG, OTHER_ORG, broadcastRequest, recipientNumber } from '../../support/broadcast-fakes';
import { templateBroadcastKit } from '../../support/template-broadcast-kit';

const full = (index: number) => `91${recipientNumber(index)}`;

function setup() {
  const clock = fixedClock('2026-03-01T09:00:00.000Z');
  const { broadcasts, queue, optOuts, dependencies } = templateBroadcastKit(clock);
  const optOut = (organizationId: string, index: number) =>
    optOuts.seed(organizationId, { phoneNumber: full(index), source: 'api', createdAt: '2026-03-01T08:00:00.000Z' });
  const send = (count: number) => sendTemplateBroadcast(dependencies, { organizationId: ORG }, broadcastRequest(count), { inProgressTimeoutMs: 20_000 });
  const queuedNumbers = () => queue.messages.flatMap((message) => (message as TemplateChunkMessage).recipients.map(({ to }) => to));
  return { broadcasts, queue, optOuts, optOut, send, queuedNumbers };
}

describe('accept-time skip of opted-out recipients (template broadcast)', () => {
  it('records an opted-out recipient as FAILED OPTED_OUT without an attempt and queues only the others', async () => {
    const kit = setup();
    kit.optOut(ORG, 1);
    const result = await kit.send(3);

    expect(result).toMatchObject({ kind: 'queued', recipients: 3 });
    expect(kit.queuedNumbers()).toEqual([full(0), full(2)]);
    const [entry] = [...kit.broadcasts.ledger.values()].filter((ledgerEntry) => ledgerEntry.to === full(1));
    expect(entry).toMatchObject({ index: 1, status: 'FAILED', failureReasonCode: 'OPTED_OUT', attempts: 0 });
    expect([...kit.broadcasts.chunks.values()][0]).toMatchObject({ failed: 1, failuresByReason: { OPTED_OUT: 1 } });
    expect(kit.optOuts.batchGetCalls).toBe(1);
  });

  it("ignores another organization's opt-outs", async () => {
    const kit = setup();
    kit.optOut(OTHER_ORG, 0);
    await kit.send(2);
    expect(kit.queuedNumbers()).toEqual([full(0), full(1)]);
    expect(kit.broadcasts.ledger.size).toBe(0);
  });

  it('completes a chunk whose every recipient opted out at accept time and queues the other chunk only', async () => {
    const kit = setup();
    kit.optOut(ORG, 1000);
    await kit.send(1001);

    expect(kit.queue.messages.map((message) => message.chunkIndex)).toEqual([0]);
    expect(kit.queuedNumbers()).toHaveLength(1000);
    const lastChunk = [...kit.broadcasts.chunks.entries()].find(([id]) => id.endsWith('#1'))![1];
    expect(lastChunk).toMatchObject({ recipientCount: 1, failed: 1, failuresByReason: { OPTED_OUT: 1 } });
    expect(lastChunk.doneAt).toBeDefined();
  });

  it('queues nothing when every recipient opted out, and the job is complete', async () => {
    const kit = setup();
    kit.optOut(ORG, 0);
    kit.optOut(ORG, 1);
    await kit.send(2);
    expect(kit.queue.messages).toHaveLength(0);
    const [chunk] = [...kit.broadcasts.chunks.values()];
    expect(chunk).toMatchObject({ failed: 2, failuresByReason: { OPTED_OUT: 2 } });
    expect(chunk!.doneAt).toBeDefined();
  });
});
