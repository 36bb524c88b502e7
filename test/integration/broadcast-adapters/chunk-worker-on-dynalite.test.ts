/**
 * The chunk worker on the real DynamoDB adapters (ledger, pacer) with a scripted upstream:
 * duplicate deliveries of one message, running at the same time, still send each recipient once.
 */
import { dynamoDbBroadcastStores, everyBroadcastStoreAdapter } from '../../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import { DynamoDbSendPacer } from '../../../shared/adapters/dynamodb/dynamodb-send-pacer';
import { getJobStatus } from '../../../shared/broadcast/get-job-status';
import type { ProcessChunkDependencies } from '../../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import { processOutboundChunk } from '../../../shared/broadcast/chunk-worker/process-outbound-chunk';
import { abandonOutboundChunk } from '../../../shared/broadcast/chunk-worker/settle-chunk';
import { InboxSuppressionList } from '../../../shared/module-bridges/inbox-opt-outs';
import { systemClock } from '../../../shared/ports/clock';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';
import {
  InMemorySenderDirectory,
  ORG,
  RecordingOutboundQueue,
  SENDER,
  ScriptedCloudApi,
  chunkMessage,
  rejected,
  InMemoryTemplateStates,
} from '../../support/broadcast-fakes';

let dynamo: TestDynamo;

beforeAll(async () => {
  dynamo = await startTestDynamo();
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

function setup(jobId: string, recipients: number) {
  const upstream = new ScriptedCloudApi(systemClock);
  // A little latency so concurrent deliveries interleave.
  upstream.onSend = () => new Promise((resolve) => setTimeout(resolve, 1));
  const broadcasts = dynamoDbBroadcastStores(dynamo.documentClient, dynamo.tableNames.messaging, everyBroadcastStoreAdapter);
  const dependencies: ProcessChunkDependencies = {
    senders: new InMemorySenderDirectory([{ ...SENDER, wabaId: `waba_${jobId}`, messagesPerSecond: 2000 }]),
    broadcasts,
    upstream,
    pacer: new DynamoDbSendPacer(dynamo.documentClient, dynamo.tableNames.messaging),
    queue: new RecordingOutboundQueue(),
    clock: systemClock,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    settings: {
      maxInFlight: 16,
      maxAttempts: 3,
      backoff: { baseMs: 5, maxMs: 20 },
      rateLimitHoldMs: 20,
      safetyMarginMs: 1000,
      outcomeBatchSize: 25,
      flushIntervalMs: 250,
      pauseRecheckSeconds: 60,
      templatePauseTimeoutMs: 3_600_000,
    },
    templateStates: new InMemoryTemplateStates(),
    optOuts: new InboxSuppressionList(new InMemoryOptOutRepository()),
  };
  const message = chunkMessage(recipients, { jobId, wabaId: `waba_${jobId}` });
  const createJob = () =>
    broadcasts.createJob(
      {
        kind: 'template',
        jobId,
        organizationId: ORG,
        broadcastName: 'on dynalite',
        exposed: true,
        wabaId: message.wabaId,
        phoneNumberId: message.phoneNumberId,
        fromPhoneNumber: SENDER.phoneNumber,
        template: { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' },
        totalRecipients: recipients,
        totalChunks: 1,
        chunkSize: 1000,
        createdAt: new Date().toISOString(),
      },
      [recipients],
    );
  const invocation = { remainingTimeMs: () => 60_000 };
  return { upstream, broadcasts, dependencies, message, createJob, invocation };
}

describe('chunk worker on dynalite', () => {
  it('sends each recipient exactly once under concurrent duplicate deliveries and a later redelivery', async () => {
    const kit = setup('pub_dup', 80);
    await kit.createJob();
    const reports = await Promise.all([
      processOutboundChunk(kit.dependencies, kit.message, kit.invocation),
      processOutboundChunk(kit.dependencies, kit.message, kit.invocation),
    ]);
    const redelivery = await processOutboundChunk(kit.dependencies, kit.message, kit.invocation);

    const perRecipient = new Map<string, number>();
    for (const send of kit.upstream.sends) perRecipient.set(send.to, (perRecipient.get(send.to) ?? 0) + 1);
    expect(perRecipient.size).toBe(80);
    expect([...perRecipient.values()].every((count) => count === 1)).toBe(true);
    expect(reports[0]!.sent + reports[1]!.sent).toBe(80);
    expect(redelivery).toMatchObject({ sent: 0, skipped: 80, chunkDone: true });

    const view = await getJobStatus(kit.broadcasts, { organizationId: ORG }, 'pub_dup');
    expect(view).toMatchObject({ status: 'COMPLETED', summary: { sent: 80, failed: 0, unknown: 0, pending: 0, chunksDone: 1 } });
  }, 20_000);

  it('ends COMPLETED_WITH_FAILURES with reasons, and a given-up chunk still finishes', async () => {
    const kit = setup('pub_mixed', 40);
    await kit.createJob();
    kit.upstream.script(kit.message.recipients[0]!.to, rejected(131026));
    // Rate-limit answers get 3 x maxAttempts (9) tries: answer all of them with 130429.
    kit.upstream.script(kit.message.recipients[1]!.to, ...Array.from({ length: 9 }, () => rejected(130429, 429)));
    // The store fails after the first sends: the delivery throws, like a crashing worker.
    // Claims go in groups (claimRecipients): the store is down from the group that reaches past the 20th recipient.
    const claim = kit.broadcasts.claimRecipients.bind(kit.broadcasts);
    let claims = 0;
    kit.broadcasts.claimRecipients = (...args) => ((claims += args[2].length) > 20 ? Promise.reject(new Error('store down')) : claim(...args));
    await expect(processOutboundChunk(kit.dependencies, kit.message, kit.invocation)).rejects.toThrow('store down');
    kit.broadcasts.claimRecipients = claim;

    // Last delivery: give up on the rest.
    await abandonOutboundChunk(kit.dependencies, kit.message);
    const view = await getJobStatus(kit.broadcasts, { organizationId: ORG }, 'pub_mixed');
    const sent = kit.upstream.sends.filter((send) => send.to !== kit.message.recipients[0]!.to && send.to !== kit.message.recipients[1]!.to).length;
    expect(view.status).toBe('COMPLETED_WITH_FAILURES');
    expect(view.summary).toMatchObject({ sent, failed: 40 - sent, unknown: 0, pending: 0, chunksDone: 1 });
    expect(view.summary.failuresByReason).toEqual({ INVALID_PHONE_NUMBER: 1, '130429': 1, WORKER_ERROR: 40 - sent - 2 });
  }, 20_000);
});
