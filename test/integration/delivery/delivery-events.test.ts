/**
 * Meta's status events through the local runtime: a real broadcast is sent by the chunk worker,
 * then webhook batches (as the webhook endpoint stores them) go through the metaEvents queue to
 * delivery-events. The ledger's facts and the job's tally items must agree exactly, also when the
 * processor crashes half-way through a batch and the batch is redelivered.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getServices } from '../../../functions/composition';
import { environmentOf } from '../../../runtime-contract/resource-definitions';
import { tallyCodeOfOutcome } from '../../../shared/broadcast/chunk-outcomes';
import type { LedgerEntry } from '../../../shared/broadcast/ports';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import {
  countTallyCode,
  emptyDeliveryCounts,
  recipientStatusOf,
  tallyCodes,
  type DeliveryFacts,
  type RecipientStatus,
} from '../../../shared/delivery/recipient-status';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { statusOf, webhookBody } from '../../support/delivery-fakes';
import {
  BASE,
  DEMO,
  issueKey,
  keyHeader,
  kitEnvironment,
  latestJobId,
  orderUpdate,
  recipients,
  waitForTerminal,
  workerContext,
} from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

let runtime: TestRuntime;
let organizationId: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
  organizationId = runtime.demo.organizationId;
}, 60_000);
afterAll(async () => {
  await runtime?.close();
});

interface Recorded {
  index: number;
  entry: LedgerEntry;
  facts: DeliveryFacts;
}

/** Every ledger entry of a one-chunk job, with Meta's facts as the recipients list reads them. */
async function ledgerOf(jobId: string): Promise<Recorded[]> {
  const { ledger } = await getServices().broadcast.broadcasts.readChunkRecipients(jobId, 0);
  return ledger.map(({ entry, facts }) => ({ index: entry.index, entry, facts }));
}

/** Every recipient's tally code of a job, as the summary reads it. */
async function tallyOf(jobId: string): Promise<Map<number, string>> {
  return new Map((await getServices().broadcast.broadcasts.getJobProgress(jobId)).tally);
}

/** The tally code a recipient's ledger entry implies (the precedence of recipient-status.ts). */
function expectedCodeOf({ entry, facts }: Recorded): string | undefined {
  if (entry.status === 'FAILED') return tallyCodeOfOutcome(entry);
  if (facts.readAt) return tallyCodes.read;
  if (facts.deliveredAt) return tallyCodes.delivered;
  if (facts.failedAt) return tallyCodes.failedByWebhook(facts.metaErrorCode ?? 'UNKNOWN');
  if (facts.sentAt) return tallyCodes.sent;
  return tallyCodeOfOutcome(entry);
}

/** Tally items against the ledger, recipient by recipient: the difference (empty when exact). */
async function tallyMismatches(jobId: string): Promise<Array<{ index: number; ledger?: string; tally?: string }>> {
  const [ledger, tally] = await Promise.all([ledgerOf(jobId), tallyOf(jobId)]);
  const mismatches: Array<{ index: number; ledger?: string; tally?: string }> = [];
  for (const recorded of ledger) {
    const expected = expectedCodeOf(recorded);
    if (tally.get(recorded.index) !== expected) mismatches.push({ index: recorded.index, ledger: expected, tally: tally.get(recorded.index) });
  }
  for (const index of tally.keys()) if (!ledger.some((recorded) => recorded.index === index)) mismatches.push({ index, tally: tally.get(index) });
  return mismatches;
}

async function statusesOf(jobId: string): Promise<Map<number, RecipientStatus>> {
  const now = new Date();
  return new Map((await ledgerOf(jobId)).map((recorded) => [recorded.index, recipientStatusOf(recorded.entry, recorded.facts, now)]));
}

async function countsOf(jobId: string) {
  const counts = emptyDeliveryCounts();
  for (const code of (await tallyOf(jobId)).values()) countTallyCode(counts, code, new Date());
  return counts;
}

async function sendBroadcast(count: number, first: number): Promise<{ jobId: string; sent: Recorded[] }> {
  const key = await issueKey(organizationId);
  const response = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
    headers: keyHeader(key.secret),
    body: orderUpdate(recipients(count, { first })),
  });
  expect(response.status).toBe(200);
  const jobId = await latestJobId(organizationId);
  await waitForTerminal(organizationId, jobId);
  const sent = await ledgerOf(jobId);
  expect(sent.filter((recorded) => recorded.entry.status === 'SENT')).toHaveLength(count);
  return { jobId, sent };
}

const envelope = (body: unknown) => JSON.stringify({ version: 1, receivedAt: new Date().toISOString(), body: JSON.stringify(body) });
const T0 = Math.floor(Date.now() / 1000);

/**
 * Three events per recipient (sent, delivered, then read for even indexes), every fifth recipient
 * failing with 131049 instead of delivered, in reverse order, each batch twice; every third event
 * without callback data (matched by message id).
 */
function eventsFor(jobId: string, sent: Recorded[]): Array<Record<string, unknown>> {
  return sent.flatMap(({ index, entry }) => {
    const callbackData = index % 3 === 0 ? undefined : callbackDataOf({ kind: 'ledger', jobId, chunkIndex: 0, index });
    const base = { id: entry.messageId!, callbackData };
    const stages =
      index % 5 === 0
        ? [
            { ...base, status: 'sent', timestamp: T0 },
            {
              ...base,
              status: 'failed',
              timestamp: T0 + 2,
              error: { code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.' },
            },
          ]
        : [
            { ...base, status: 'sent', timestamp: T0 },
            { ...base, status: 'delivered', timestamp: T0 + 1 },
            ...(index % 2 === 0 ? [{ ...base, status: 'read', timestamp: T0 + 3 }] : []),
          ];
    return stages.reverse().map(statusOf);
  });
}

const bodiesOf = (events: Array<Record<string, unknown>>, perBody = 40) =>
  Array.from({ length: Math.ceil(events.length / perBody) }, (_, part) =>
    webhookBody([{ wabaId: DEMO.wabaId, phoneNumberId: DEMO.phoneNumberId1, statuses: events.slice(part * perBody, (part + 1) * perBody) }]),
  );

function expectedStatus(index: number): RecipientStatus {
  if (index % 5 === 0) return 'FAILED';
  return index % 2 === 0 ? 'READ' : 'DELIVERED';
}

describe('delivery-events through the local runtime', () => {
  it('applies queued webhook batches: facts, statuses and tally are right; duplicates, reordering and another number’s events are harmless', async () => {
    const { jobId, sent } = await sendBroadcast(60, 9_310_000_000);
    expect(await tallyMismatches(jobId)).toEqual([]);

    const events = eventsFor(jobId, sent);
    const bodies = bodiesOf(events);
    // Another organization's number naming our job: dropped.
    const foreign = webhookBody([
      {
        phoneNumberId: 'pn_not_ours',
        statuses: sent.slice(0, 5).map(({ index, entry }) =>
          statusOf({
            id: entry.messageId!,
            status: 'failed',
            callbackData: callbackDataOf({ kind: 'ledger', jobId, chunkIndex: 0, index }),
            error: { code: 131026, title: 'x' },
          }),
        ),
      },
    ]);
    for (const body of [...bodies, foreign, ...bodies.reverse()]) {
      await runtime.sqs.send(new SendMessageCommand({ QueueUrl: runtime.queueUrls.metaEvents, MessageBody: envelope(body) }));
    }
    await eventually(
      () => statusesOf(jobId),
      (statuses) => [...statuses].every(([index, status]) => status === expectedStatus(index)),
      60_000,
      250,
    );
    await runtime.workersIdle();

    expect(await tallyMismatches(jobId)).toEqual([]);
    const counts = await countsOf(jobId);
    expect(counts).toMatchObject({ sent: 48, delivered: 48, read: 24, failed: 12, failuresByReason: { '131049': 12 }, unknown: 0, accounted: 60 });
    const recorded = await ledgerOf(jobId);
    const first = recorded.find((entry) => entry.index === 2)!;
    expect(first.facts).toEqual({
      sentAt: new Date(T0 * 1000).toISOString(),
      deliveredAt: new Date((T0 + 1) * 1000).toISOString(),
      readAt: new Date((T0 + 3) * 1000).toISOString(),
    });
  });

  it('fault: one tally item’s write fails; the redelivered batch completes it, and the tally equals the per-recipient statuses', async () => {
    const { jobId, sent } = await sendBroadcast(80, 9_320_000_000);
    const bodies = bodiesOf(eventsFor(jobId, sent), 1_000);
    expect(bodies).toHaveLength(1);
    const handler = (await import('../../../functions/delivery-events/delivery-events.lambda')).createHandler(
      environmentOf('delivery-events', process.env),
    ) as (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;
    const event: SQSEvent = {
      Records: [
        {
          messageId: 'm-1',
          receiptHandle: 'not-a-real-handle',
          body: envelope(bodies[0]),
          attributes: {
            ApproximateReceiveCount: '1',
            SentTimestamp: String(Date.now()),
            SenderId: 'test',
            ApproximateFirstReceiveTimestamp: String(Date.now()),
          },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:meta-events',
          awsRegion: 'us-east-1',
        },
      ],
    };

    // One of the batch's two tally items fails its write (a crash or timeout after the other was
    // written): recipients 50–79 keep none of this batch's facts yet, and the batch fails.
    const name = 'test-delivery-crash';
    const stack = getServices().clients.dynamoDbBase.middlewareStack;
    stack.add(
      (next, context) => async (args) => {
        // Marshalled or not, depending on where in the stack the document client's commands are.
        type Attribute = string | { S?: string } | undefined;
        const text = (attribute: Attribute) => (typeof attribute === 'string' ? attribute : attribute?.S);
        const key = (args.input as { Key?: { pk?: Attribute; sk?: Attribute } }).Key;
        if (/^Update(Item)?Command$/.test(context.commandName ?? '') && text(key?.pk) === `JOB#${jobId}` && text(key?.sk) === 'TALLY#0001') {
          throw Object.assign(new Error('process crashed'), { name: 'TimeoutError' });
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      // Every record of the batch failed: the invocation fails (Lambda redelivers the batch).
      await expect(handler(event, workerContext())).rejects.toThrow(/All records failed/);
    } finally {
      stack.remove(name);
    }
    // Facts and codes share one write: they never disagree, but the second item's recipients are behind.
    expect(await tallyMismatches(jobId)).toEqual([]);
    expect([...(await statusesOf(jobId))].filter(([index, status]) => status !== expectedStatus(index)).map(([index]) => index)).toEqual(
      Array.from({ length: 30 }, (_, offset) => 50 + offset),
    );

    const redelivered = await handler(
      { Records: [{ ...event.Records[0]!, attributes: { ...event.Records[0]!.attributes, ApproximateReceiveCount: '2' } }] },
      workerContext(),
    );
    expect(redelivered.batchItemFailures).toEqual([]);

    expect(await tallyMismatches(jobId)).toEqual([]);
    const statuses = await statusesOf(jobId);
    expect([...statuses].filter(([index, status]) => status !== expectedStatus(index))).toEqual([]);
    const counts = await countsOf(jobId);
    const byStatus = (wanted: RecipientStatus[]) => [...statuses.values()].filter((status) => wanted.includes(status)).length;
    expect(counts).toMatchObject({
      sent: byStatus(['SENT', 'DELIVERED', 'READ']),
      delivered: byStatus(['DELIVERED', 'READ']),
      read: byStatus(['READ']),
      failed: byStatus(['FAILED']),
      accounted: 80,
    });
  });
});
