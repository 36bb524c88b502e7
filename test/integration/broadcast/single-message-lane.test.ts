/**
 * The single-message lane (docs/SCALE.md "The single-message lane"), on the local runtime with its
 * pollers from the contract: while another organization's 3,000-recipient broadcast drains at 20
 * messages a second (150 s of chunks on the outbound queue and its chunk-worker), and then while a
 * third organization's 20,000-member campaign drains (its expander queueing chunks beside), a second
 * organization's free-form message and one-recipient broadcast reach the sandbox within seconds,
 * long before the big one finishes, and every SQS send that carried them went to the single-messages
 * queue (and none of the big job's to it).
 */
import type { SendMessageBatchCommandInput } from '@aws-sdk/client-sqs';
import { getServices } from '../../../functions/composition';
import { decodeOutboundMessage } from '../../../shared/broadcast/chunk-message';
import { TERMINAL_STATUSES } from '../../../shared/broadcast/broadcast-job';
import { BROADCAST_PATH, broadcastBody, createBenchTenant, issueKey as issueBenchKey, type BenchTenant } from '../../../bench/lib/workload';
import { audienceStoreOf } from '../../../bench/lib/campaign-stores';
import { campaignBody, seedMembers } from '../../../bench/lib/campaign-workload';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, orderUpdate, readJob, recipients } from './broadcast-test-kit';

const BIG_RECIPIENTS = 3_000;
const BIG_RATE = 20;
/** The proof of issue 40: a campaign of this size drains beside the single messages. */
const CAMPAIGN_MEMBERS = 20_000;
/** Seconds, not the big job's minutes (docs/PERFORMANCE.md has the figures under load: `--only=fifth`). */
const SINGLES_WITHIN_MS = (BIG_RECIPIENTS / BIG_RATE / 5) * 1000;

/** Every SendMessageBatch of the process's SQS client (every function's, inline): queue URL and the job of each body. */
function recordQueueSends(): { sends: Array<{ queueUrl: string; jobIds: string[] }>; stop(): void } {
  const sends: Array<{ queueUrl: string; jobIds: string[] }> = [];
  const stack = getServices().clients.sqs.middlewareStack;
  stack.add(
    (next) => async (args) => {
      const input = args.input as SendMessageBatchCommandInput;
      if (input?.Entries && input.QueueUrl) {
        const jobIds = input.Entries.flatMap((entry) => {
          try {
            return [decodeOutboundMessage(entry.MessageBody!).jobId];
          } catch {
            return []; // not a chunk message (customer events, expansion)
          }
        });
        if (jobIds.length > 0) sends.push({ queueUrl: input.QueueUrl, jobIds });
      }
      return next(args);
    },
    { step: 'initialize', name: 'recordOutboundSends', override: true },
  );
  return { sends, stop: () => stack.remove('recordOutboundSends') };
}

describe('a single message while another organization drains a large broadcast or campaign', () => {
  let runtime: TestRuntime;
  let big: BenchTenant;
  let campaigner: BenchTenant;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    big = await createBenchTenant(getServices(), runtime.sandbox!, 700, BIG_RATE);
    campaigner = await createBenchTenant(getServices(), runtime.sandbox!, 701, BIG_RATE);
    runtime.sandbox!.configure({ throughputByPhoneNumberId: { [big.phoneNumberId]: BIG_RATE, [campaigner.phoneNumberId]: BIG_RATE } });
  }, 60_000);

  const sentBy = (tenant: BenchTenant) => runtime.sandbox!.acceptedMessages().filter((message) => message.phoneNumberId === tenant.phoneNumberId).length;

  /** The demo organization's free-form message and one-recipient broadcast, sent at once: how long until both reached the sandbox. */
  async function sendSingles(first: number): Promise<{ arrivedWithinMs: number; recipients: string[]; arrived: string[] }> {
    const demoKey = (await issueKey(runtime.demo.organizationId)).secret;
    const freeformTo = `4477009${String(first).padStart(5, '0')}`;
    const [single] = recipients(1, { first: 9_555_000_000 + first });
    const startedAt = Date.now();
    const [freeform, oneRecipient] = await Promise.all([
      runtime.call('POST', `${BASE}/send-freeform`, {
        headers: keyHeader(demoKey),
        body: { fromPhoneNumber: DEMO.sender1, toPhoneNumber: freeformTo, type: 'text', text: 'Your parcel is here' },
      }),
      runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(demoKey), body: orderUpdate([single!], { broadcastName: 'one person' }) }),
    ]);
    expect([freeform.status, oneRecipient.status]).toEqual([200, 200]);
    const singleTo = [freeformTo, `${single!.countryCode}${single!.toPhoneNumber}`];
    const arrived = await eventually(
      async () => runtime.sandbox!.acceptedMessages().filter((message) => singleTo.includes(message.recipient)),
      (messages) => messages.length === 2,
      30_000,
      50,
    );
    return {
      arrivedWithinMs: Math.max(...arrived.map((message) => Date.parse(message.receivedAt))) - startedAt,
      recipients: singleTo,
      arrived: arrived.map((message) => message.recipient),
    };
  }

  /** The two single jobs went to the single-messages queue only, the big job to the outbound queue only. */
  function expectLanes(sends: ReturnType<typeof recordQueueSends>['sends'], bigJobId: string): void {
    const { queueUrls } = runtime;
    const lanesOf = (jobId: string) => [...new Set(sends.filter((send) => send.jobIds.includes(jobId)).map((send) => send.queueUrl))];
    const singleJobIds = [...new Set(sends.flatMap((send) => send.jobIds))].filter((jobId) => jobId !== bigJobId);
    expect(singleJobIds).toHaveLength(2);
    expect(singleJobIds.map((jobId) => jobId.slice(0, 4)).sort()).toEqual(['msg_', 'pub_']);
    for (const jobId of singleJobIds) expect(lanesOf(jobId)).toEqual([queueUrls.singleMessages]);
    expect(lanesOf(bigJobId)).toEqual([queueUrls.outbound]);
  }
  afterAll(async () => {
    await runtime?.close();
  }, 60_000);

  it('delivers a free-form message and a one-recipient broadcast through the single-message queue before the big one finishes', async () => {
    const recorder = recordQueueSends();
    try {
      const bigKey = await issueBenchKey(getServices(), big.organizationId);
      const accepted = await runtime.call('POST', BROADCAST_PATH, {
        headers: keyHeader(bigKey),
        body: broadcastBody({ count: BIG_RECIPIENTS, seed: 7, from: big.phoneNumber, name: 'the big one' }),
      });
      expect(accepted.status).toBe(202);
      const bigJobId = accepted.body.data.jobId as string;
      // Draining: its chunks hold the bulk lane's worker.
      await eventually(
        async () => sentBy(big),
        (count) => count >= BIG_RATE,
        30_000,
        100,
      );

      const singles = await sendSingles(555);
      // The big one is still draining: most of its recipients are yet to be sent, and its job is not over.
      expect(sentBy(big)).toBeLessThan(BIG_RECIPIENTS / 2);
      expect(TERMINAL_STATUSES.has((await readJob(big.organizationId, bigJobId)).status)).toBe(false);
      expect(singles.arrivedWithinMs).toBeLessThan(SINGLES_WITHIN_MS);
      expectLanes(recorder.sends, bigJobId);
      // Sent once each (the same exactly-once ledger as the chunk worker's).
      expect(singles.arrived.sort()).toEqual([...singles.recipients].sort());

      // Done: the big one is cancelled so the runtime stops without draining it.
      const cancelled = await runtime.call('POST', `${BASE}/broadcasts/${bigJobId}/cancel`, { headers: keyHeader(bigKey) });
      expect(cancelled.status).toBe(200);
    } finally {
      recorder.stop();
    }
  }, 120_000);

  it("delivers them the same way while another organization's 20,000-member campaign drains", async () => {
    const key = await issueBenchKey(getServices(), campaigner.organizationId);
    const api = (method: string, path: string, body?: unknown) => runtime.call(method, `${BASE}${path}`, { headers: keyHeader(key), body });
    const audience = await api('POST', '/audiences', { name: 'everyone' });
    expect(audience.status).toBe(201);
    const audienceId = audience.body.data.audienceId as string;
    // One page at a time: an audience takes one writer at a time (its write lease).
    await seedMembers(audienceStoreOf(getServices()), { organizationId: campaigner.organizationId, audienceId }, 46, CAMPAIGN_MEMBERS);
    const created = await api('POST', '/campaigns', campaignBody(campaigner, [audienceId], 'the big campaign'));
    expect(created.status).toBe(201);
    const campaignId = created.body.data.campaignId as string;

    const recorder = recordQueueSends();
    try {
      expect((await api('POST', `/campaigns/${campaignId}/launch`)).status).toBe(202);
      // Draining: the expander queues its chunks page by page and the bulk lane's worker sends them.
      await eventually(
        async () => sentBy(campaigner),
        (count) => count >= BIG_RATE,
        60_000,
        100,
      );
      const campaignJobId = (await api('GET', `/campaigns/${campaignId}`)).body.data.jobId as string;

      const singles = await sendSingles(556);
      expect(sentBy(campaigner)).toBeLessThan(CAMPAIGN_MEMBERS / 2);
      expect(singles.arrivedWithinMs).toBeLessThan(SINGLES_WITHIN_MS);
      expectLanes(recorder.sends, campaignJobId);
      expect(singles.arrived.sort()).toEqual([...singles.recipients].sort());

      // Done: the campaign is cancelled (its expander stops at its next page) so the runtime stops without draining it.
      expect((await api('POST', `/campaigns/${campaignId}/cancel`)).status).toBe(200);
    } finally {
      recorder.stop();
    }
  }, 180_000);
});
