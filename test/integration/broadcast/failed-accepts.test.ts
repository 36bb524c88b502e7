/**
 * What a failed or refused accept leaves behind, through the whole local stack (issue 23 items 1,
 * 2 and 16; docs/BROADCAST.md "Accepting a job", "Idempotency-Key", "Messaging limits"):
 *
 * - SQS takes the first batch of a job, a worker starts sending it, the other batches time out:
 *   the answer is 503, the job stays (its status says why), and the retry with the same key sends
 *   every recipient exactly once (the sandbox's log is the proof);
 * - a key whose record expired, used again: 422 naming the earlier job and its date, nothing sent;
 * - accepts refused after their messaging-limit reservation (campaign name taken, wallet too low,
 *   the expired key) leave the portfolio's count as it was.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MiddlewareStack } from '@smithy/types';
import { getServices } from '../../../functions/composition';
import { TERMINAL_STATUSES } from '../../../shared/broadcast/broadcast-job';
import type { JobStatusView } from '../../../shared/broadcast/get-job-status';
import { reachHourOf } from '../../../shared/broadcast/messaging-limit';
import { newJobId } from '../../../shared/broadcast/job-fan-out';
import { cardinalityOf, deserializeSketch, unionOfAll } from '../../../shared/broadcast/reach-sketch';
import { messagingKeys } from '../../../shared/adapters/dynamodb/messaging-table';
import { randomIdGenerator } from '../../../shared/ports/id-generator';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import {
  BASE,
  DEMO,
  acceptedByRecipient,
  idempotencyRecords,
  issueKey,
  keyHeader,
  kitEnvironment,
  orderUpdate,
  readJob,
  recipients,
} from './broadcast-test-kit';

const DEMO_BUSINESS = '110000000000000';
const DAY_MS = 24 * 3_600_000;

/**
 * Arms a fault on the outbound queue for one accept: its first SendMessageBatch goes through, every
 * later one waits until `released()` (a worker has started sending what went through, at least
 * 300 ms) and then times out, as SQS does when it does not answer.
 */
function queueFault(stack: MiddlewareStack<any, any>, outboundQueueUrl: string) {
  let armed: { released: () => Promise<void>; passed: number } | undefined;
  stack.add(
    (next) => async (args) => {
      const input = args.input as { QueueUrl?: string; Entries?: unknown[] };
      if (armed && input.QueueUrl === outboundQueueUrl && input.Entries) {
        armed.passed += 1;
        if (armed.passed > 1) {
          await armed.released();
          throw Object.assign(new Error('Socket timed out after 2000 ms'), { name: 'TimeoutError' });
        }
      }
      return next(args);
    },
    { step: 'build', name: 'acceptQueueFault', override: true },
  );
  return {
    arm: (released: () => Promise<void>) => (armed = { released, passed: 0 }),
    disarm: () => (armed = undefined),
  };
}

describe('failed accepts: nothing lost, nothing sent twice, nothing counted for nothing', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let fault: ReturnType<typeof queueFault>;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
    const services = getServices();
    fault = queueFault(services.clients.sqs.middlewareStack, services.config.queueUrls.outboundMessages);
    // Sender 2's number has a tier (and its sends count); sender 1's stays unlimited (its sends count nowhere).
    runtime.sandbox!.configure({ messagingLimitByPhoneNumberId: { [DEMO.phoneNumberId2]: 'TIER_250' } });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  }, 30_000);
  afterEach(() => fault.disarm());

  const send = async (body: unknown, idempotencyKey?: string, apiKey?: string) =>
    runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: { ...keyHeader(apiKey ?? (await issueKey(organizationId)).secret), ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
      body,
    });
  /** Unique recipients the demo portfolio has reached in the window, as the accept path counts them. */
  const portfolioCount = async () => {
    const now = new Date();
    const buckets = await getServices().broadcast.portfolioReach.bucketsOf(DEMO_BUSINESS, reachHourOf(new Date(now.getTime() - DAY_MS)), reachHourOf(now));
    return cardinalityOf(unionOfAll(buckets.map((bucket) => deserializeSketch(bucket.sketch))));
  };
  /** Lets a key's idempotency record expire (TTL) and makes its job `days` old. */
  const expireKey = async (recordsBefore: Set<unknown>, jobId: string, days: number) => {
    const services = getServices();
    for (const record of (await idempotencyRecords()).filter((item) => !recordsBefore.has(item.pk))) {
      await services.clients.dynamoDb.send(new DeleteCommand({ TableName: services.config.tableNames.idempotency, Key: { pk: record.pk } }));
    }
    await services.clients.dynamoDb.send(
      new UpdateCommand({
        TableName: services.config.tableNames.messaging,
        Key: messagingKeys.job(jobId),
        UpdateExpression: 'SET createdAt = :at',
        ExpressionAttributeValues: { ':at': new Date(Date.now() - days * DAY_MS).toISOString() },
      }),
    );
  };

  it('queueing fails part-way while the first batch is being sent: 503, the job stays and says so, the retry sends everyone exactly once', async () => {
    // Long parameters: chunk 0 is split into several SQS messages, one batch each, so some get through and some do not.
    const long = (index: number) => [`Name${index}-${'x'.repeat(900)}`, `ORD-${index}-${'y'.repeat(900)}`];
    const body = orderUpdate(recipients(1_001, { first: 9_200_000_000, params: long }));
    const key = 'part-way-failure';
    const jobId = newJobId(randomIdGenerator, 'template', `${organizationId}\n${key}`);
    const apiKey = (await issueKey(organizationId)).secret;
    const sentSoFar = () => [...acceptedByRecipient(runtime, DEMO.phoneNumberId1).keys()].filter((to) => to.startsWith('9192')).length;
    fault.arm(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await eventually(
        async () => sentSoFar(),
        (count) => count > 0,
        20_000,
        20,
      );
    });

    const failed = await send(body, key, apiKey);
    fault.disarm();
    expect(failed.status).toBe(503);
    expect(sentSoFar()).toBeGreaterThan(0);
    const kept = await readJob(organizationId, jobId);
    expect(kept.acceptFailure).toEqual({ failedAt: expect.any(String), retryUntil: expect.any(String) });

    const retried = await send(body, key, apiKey);
    expect(retried.status).toBe(202);
    expect(retried.body.data.jobId).toBe(jobId);
    // Read as the status endpoint does; a read dynalite times out under the drain's load is read again.
    const done = (await eventually<JobStatusView | undefined>(
      () => readJob(organizationId, jobId).catch(() => undefined),
      (view) => view !== undefined && TERMINAL_STATUSES.has(view.status),
      90_000,
      250,
    )) as JobStatusView;
    await runtime.workersIdle();
    // Everyone accounted for; on a loaded machine a dynalite timeout can leave a send's outcome
    // unknown (never sent again by design), so `unknown` is allowed, a failure or a duplicate is not.
    expect(done.summary).toMatchObject({ failed: 0, pending: 0 });
    expect(done.summary.sent + done.summary.unknown).toBe(1_001);
    expect(done).not.toHaveProperty('acceptFailure');
    const byRecipient = [...acceptedByRecipient(runtime, DEMO.phoneNumberId1)].filter(([to]) => to.startsWith('9192'));
    expect(byRecipient.length).toBeGreaterThanOrEqual(done.summary.sent);
    expect(byRecipient.filter(([, messages]) => messages.length !== 1).map(([to]) => to)).toEqual([]);
  }, 150_000);

  it('a key used again after its record expired: 422 naming the earlier job and its date; the new recipients are not sent nor counted', async () => {
    const recordsBefore = new Set((await idempotencyRecords()).map((record) => record.pk));
    const first = await send(orderUpdate(recipients(1, { first: 9_300_000_000 }), { fromPhoneNumber: DEMO.sender2 }), 'weekly-report');
    expect(first.status).toBe(200);
    const jobId = first.headers.get('x-broadcast-job-id')!;
    await runtime.workersIdle();
    await expireKey(recordsBefore, jobId, 3);
    const countBefore = await portfolioCount();
    expect(countBefore).toBe(1);

    const again = await send(orderUpdate(recipients(3, { first: 9_300_000_100 }), { fromPhoneNumber: DEMO.sender2 }), 'weekly-report');
    expect(again.status).toBe(422);
    const acceptedAt: string = again.body.data.error.earlierJob.acceptedAt;
    expect(Math.abs(Date.now() - 3 * DAY_MS - Date.parse(acceptedAt))).toBeLessThan(60_000);
    expect(again.body).toMatchObject({
      status: false,
      status_code: 422,
      data: { error: { code: 'IDEMPOTENCY_KEY_REUSED', earlierJob: { jobId, acceptedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } } },
    });
    expect(again.body.message).toBe(
      `This Idempotency-Key was already used for job ${jobId}, accepted at ${acceptedAt}; a key can be retried for 48 hours only. Nothing was queued: use a new key to send this broadcast again`,
    );
    await runtime.workersIdle();
    expect([...acceptedByRecipient(runtime, DEMO.phoneNumberId2).keys()].filter((to) => to.startsWith('919300000'))).toEqual(['919300000000']);
    expect(await portfolioCount()).toBe(countBefore);
  }, 60_000);

  it('send-bulk refused after reserving (campaign name taken, wallet too low): the portfolio count is as before, so the room is still there', async () => {
    const bound = await issueKey(organizationId, DEMO.sender2);
    const bulk = (name: string, first: number, count: number) =>
      runtime.call('POST', `${BASE}/send-bulk`, {
        headers: keyHeader(bound.secret),
        body: {
          broadcastName: name,
          templateName: 'order_update',
          templateLanguage: 'en_US',
          templateType: 'UTILITY',
          globalTemplateParams: ['A', 'B'],
          data: recipients(count, { first, params: () => undefined }),
        },
      });
    const countBefore = await portfolioCount();

    await getServices().broadcast.broadcastNames.claim(organizationId, 'spring-taken', 'leg_someone_else');
    const nameTaken = await bulk('spring-taken', 9_300_001_000, 200);
    expect(nameTaken.status).toBe(400);
    expect(await portfolioCount()).toBe(countBefore);

    const tenancy = getServices().tenancy.repository;
    const balance = (await tenancy.getWallet(organizationId))?.balanceMicros ?? 0;
    await tenancy.debitWallet(organizationId, balance, new Date().toISOString());
    try {
      const broke = await bulk('spring-broke', 9_300_002_000, 200);
      expect(broke.status).toBe(400);
      expect(broke.body.message).toBe('Insufficient credits');
      expect(await portfolioCount()).toBe(countBefore);
    } finally {
      await tenancy.creditWallet(organizationId, balance, new Date().toISOString());
    }

    // Had either refusal stayed counted, 200 of these 249 would be over TIER_250.
    const fits = await send(orderUpdate(recipients(250 - countBefore, { first: 9_300_003_000 }), { fromPhoneNumber: DEMO.sender2 }));
    expect(fits.status).toBe(200);
    expect(await portfolioCount()).toBe(250);
  }, 60_000);
});
