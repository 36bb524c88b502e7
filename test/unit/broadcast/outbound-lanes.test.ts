/**
 * The outbound lanes (docs/SCALE.md "The single-message lane"): which jobs travel the single-message
 * lane, that the fan-out marks their messages and a worker's re-queue keeps the mark, that a message
 * queued before lanes reads as bulk, and that the queue adapter sends each message to its lane's queue
 * (and sets a failed delivery's visibility on the queue it came from).
 */
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { SqsOutboundQueue } from '../../../shared/adapters/sqs/sqs-outbound-queue';
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import { decodeOutboundMessage, encodeOutboundMessage, type OutboundMessage, type TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { newJob, recordAndFanOut } from '../../../shared/broadcast/job-fan-out';
import { byLane, inLane, laneOfJob, laneOfMessage } from '../../../shared/broadcast/outbound-lanes';
import { fixedClock } from '../../../shared/ports/clock';
import { chunkMessage, InMemoryBroadcastRepository, ORG, RecordingOutboundQueue, SENDER } from '../../support/broadcast-fakes';
import { setup as chunkWorkerSetup, startMs } from '../chunk-worker/chunk-worker-kit';

const clock = fixedClock('2026-03-01T09:00:00.000Z');
const templateRef = { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' };
const fields = (totalRecipients: number) => ({ jobId: 'pub_1', organizationId: ORG, sender: SENDER, totalRecipients, exposed: false, now: clock.now() });
const templateJob = (totalRecipients: number, extra: { campaignId?: string } = {}) =>
  newJob({ kind: 'template', broadcastName: 'spring', template: templateRef, ...extra }, fields(totalRecipients));
const listed = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ index, countryCode: '91', toPhoneNumber: `98${String(index).padStart(8, '0')}` }));
const recipients = (count: number) => Array.from({ length: count }, (_, index) => ({ index, to: `9198${String(index).padStart(8, '0')}`, parameters: ['a'] }));

describe('laneOfJob', () => {
  it("sends a job of exactly one recipient that is not a campaign's through the single lane", () => {
    expect(laneOfJob(newJob({ kind: 'freeform', messageType: 'text' }, { ...fields(1), jobId: 'msg_1' }))).toBe('single');
    expect(laneOfJob(templateJob(1))).toBe('single');
    expect(laneOfJob(newJob({ kind: 'earlier', mode: 'single', template: templateRef }, { ...fields(1), jobId: 'leg_1' }) as BroadcastJob)).toBe('single');
    expect(laneOfJob(newJob({ kind: 'earlier', mode: 'bulk', broadcastName: 'b', template: templateRef }, { ...fields(1), jobId: 'leg_2' }))).toBe('single');
  });

  it('sends everything else through the bulk lane: two or more recipients, and every campaign job whatever its count', () => {
    expect(laneOfJob(templateJob(2))).toBe('bulk');
    expect(laneOfJob(templateJob(5_000))).toBe('bulk');
    expect(laneOfJob(templateJob(1, { campaignId: 'cmp_1' }))).toBe('bulk');
    expect(laneOfJob(templateJob(0, { campaignId: 'cmp_1' }))).toBe('bulk');
  });
});

describe('lane marks on messages', () => {
  it('reads a message without a mark (queued before lanes) as bulk, and keeps the mark through the codec', () => {
    const old = chunkMessage(2);
    expect(laneOfMessage(decodeOutboundMessage(encodeOutboundMessage(old)))).toBe('bulk');
    const single = inLane(chunkMessage(1), 'single');
    expect(decodeOutboundMessage(encodeOutboundMessage(single))).toEqual(single);
    expect(laneOfMessage(decodeOutboundMessage(encodeOutboundMessage(single)))).toBe('single');
    // A bulk message carries no mark: its bytes are those of every message before lanes.
    expect(encodeOutboundMessage(inLane(single, 'bulk'))).toBe(encodeOutboundMessage(chunkMessage(1)));
  });

  it('groups messages by lane, each group in its order', () => {
    const [a, b, c] = [chunkMessage(1, { chunkIndex: 0 }), inLane(chunkMessage(1, { chunkIndex: 1 }), 'single'), chunkMessage(1, { chunkIndex: 2 })];
    expect([...byLane([a, b, c])]).toEqual([
      ['bulk', [a, c]],
      ['single', [b]],
    ]);
  });

  it("the fan-out marks the messages of a one-recipient job single (free-form and template) and leaves a larger job's unmarked", async () => {
    const queue = new RecordingOutboundQueue();
    const dependencies = { broadcasts: new InMemoryBroadcastRepository(), queue, clock };
    await recordAndFanOut(dependencies, { job: templateJob(1), recipients: recipients(1), listed: listed(1) });
    const freeform = newJob({ kind: 'freeform', messageType: 'text' }, { ...fields(1), jobId: 'msg_1' });
    await recordAndFanOut(dependencies, { job: freeform, to: '919800000001', body: { type: 'text', text: { body: 'hi' } } });
    await recordAndFanOut(dependencies, { job: { ...templateJob(2_001), jobId: 'pub_2' }, recipients: recipients(2_001), listed: listed(2_001) });
    expect(queue.messages.map((message) => [message.jobId, message.chunkIndex, laneOfMessage(message)])).toEqual([
      ['pub_1', 0, 'single'],
      ['msg_1', 0, 'single'],
      ['pub_2', 0, 'bulk'],
      ['pub_2', 1, 'bulk'],
      ['pub_2', 2, 'bulk'],
    ]);
    expect(queue.messages.filter((message) => message.jobId === 'pub_2').every((message) => !('lane' in message))).toBe(true);
  });

  it("a worker's re-queue of a single message (no time left for it) goes back to the single lane", async () => {
    const kit = chunkWorkerSetup({ rate: 10 });
    const message = inLane(chunkMessage(1), 'single') as TemplateChunkMessage;
    await kit.createJob(message);
    kit.setDeadline(startMs + 500);
    const report = await kit.run(message);
    expect(report).toMatchObject({ sent: 0, continued: 1 });
    expect(kit.queue.messages.map(laneOfMessage)).toEqual(['single']);
  });
});

describe('SqsOutboundQueue routing', () => {
  const urls = { bulk: 'http://sqs/outbound', single: 'http://sqs/single' };
  const stubClient = () => {
    const calls: Array<{ command: string; queueUrl: string; bodies?: string[] }> = [];
    const client = {
      middlewareStack: { add: () => undefined },
      send: jest.fn(async (command: SendMessageBatchCommand | ChangeMessageVisibilityCommand) => {
        if (command instanceof SendMessageBatchCommand) {
          calls.push({ command: 'SendMessageBatch', queueUrl: command.input.QueueUrl!, bodies: command.input.Entries!.map((entry) => entry.MessageBody!) });
          return { Successful: [], Failed: [] };
        }
        calls.push({ command: 'ChangeMessageVisibility', queueUrl: command.input.QueueUrl! });
        return {};
      }),
    };
    return { client: client as unknown as SQSClient, calls };
  };
  const jobIdsOf = (bodies: readonly string[] = []) => bodies.map((body) => decodeOutboundMessage(body).jobId);

  it("sends each message to its lane's queue, the single messages apart from the chunks in one call", async () => {
    const { client, calls } = stubClient();
    const messages: OutboundMessage[] = [
      chunkMessage(3, { jobId: 'pub_big' }),
      inLane(chunkMessage(1, { jobId: 'pub_one' }), 'single'),
      chunkMessage(3, { jobId: 'pub_big', chunkIndex: 1 }),
      inLane(chunkMessage(1, { jobId: 'leg_one' }), 'single'),
    ];
    await new SqsOutboundQueue(client, urls).enqueue(messages);
    expect(calls.map((call) => [call.queueUrl, jobIdsOf(call.bodies)])).toEqual([
      [urls.bulk, ['pub_big', 'pub_big']],
      [urls.single, ['pub_one', 'leg_one']],
    ]);
  });

  it("sets a failed delivery's visibility on the queue of the lane it was received from (bulk when unnamed)", async () => {
    const { client, calls } = stubClient();
    const queue = new SqsOutboundQueue(client, urls);
    await queue.deferRedelivery('rh-1', 2, 'single');
    await queue.deferRedelivery('rh-2', 2);
    expect(calls).toEqual([
      { command: 'ChangeMessageVisibility', queueUrl: urls.single },
      { command: 'ChangeMessageVisibility', queueUrl: urls.bulk },
    ]);
  });

  it('refuses a lane its function has no queue of, before sending anything', async () => {
    const { client, calls } = stubClient();
    const bulkOnly = new SqsOutboundQueue(client, { bulk: urls.bulk });
    await expect(bulkOnly.enqueue([chunkMessage(2), inLane(chunkMessage(1), 'single')])).rejects.toThrow('No queue of the single lane is configured');
    expect(calls).toEqual([]);
  });
});
