/**
 * Issue 23 item 5's scenario, shared by the fairness test (test/integration/customer-webhooks/
 * fairness.test.ts) and the bench (`npm run bench -- --only=fairness`): organization A registers
 * 10 endpoints on a receiver that accepts connections and never answers, and redelivers 1,000
 * events to one of them every 2 s (30 calls a minute, the routes' limit: the highest rate a key
 * may ask); meanwhile organization B, with one healthy endpoint, publishes one event every
 * `intervalMs`. Measured: when each of B's events reaches B's receiver, from just before it was
 * published. Everything goes through the local runtime as deployed: the routes (API key, rate
 * limit, quota), dynalite, fauxqs and the customer-events function fed by the local SQS event source.
 *
 * `organizationA: 'slow'` (issue 35 item 5): A's 10 endpoints answer 200 after 4.9 s instead (healthy
 * by success alone), and A publishes 10 events every 2 s, each delivered to all 10 endpoints (100
 * deliveries every 2 s, every endpoint kept busy), instead of redelivering.
 */
import type { LocalRuntime } from '../../local/local-runtime';
import { createCompositionContext } from '../../functions/composition/composition-context';
import { customerEventLogSection, customerEventPublisherSection } from '../../functions/composition/customer-events.section';
import { dynamoDbClients } from '../../functions/composition/dynamodb-clients';
import { webhookSubscribersSection } from '../../functions/composition/webhook-subscribers.section';
import { parseAppConfig } from '../../shared/config/app-config';
import { newCustomerEvent } from '../../shared/customer-events/event-envelope';
import { startScriptedReceiver, type ScriptedReceiver } from './scripted-receiver';

const WEBHOOKS = '/prod/api/v2/broadcast/public/webhooks';
const DEAD_ENDPOINTS = 10;
const LOGGED_EVENTS = 1_000;
const REDELIVER_EVERY_MS = 2_000;
/** The slow case: how long A's endpoints take to answer 200, and A's events per round. */
export const SLOW_ANSWER_MS = 4_900;
const SLOW_EVENTS_PER_ROUND = 4;

export type ScenarioCall = (
  method: string,
  path: string,
  options: { headers: Record<string, string>; body?: unknown },
) => Promise<{ status: number; body: any }>;

export interface FairnessScenarioOptions {
  runtime: Pick<LocalRuntime, 'demo'>;
  call: ScenarioCall;
  /** B's events (default 50), one every `intervalMs` (default 400: 50 events over 20 s). */
  events?: number;
  intervalMs?: number;
  /** How long to wait for B's last events after the last was published (default 10 s). */
  settleMs?: number;
  /** False: A's endpoints are registered but A does not redeliver (the bench's reference run). Default true. */
  flood?: boolean;
  /** A's endpoints: `dead` (never answer; A redelivers) or `slow` (200 after 4.9 s; A publishes). Default `dead`. */
  organizationA?: 'dead' | 'slow';
}

export interface FairnessScenarioResult {
  /** B's delays in ms, event by event; an event that never arrived is absent (see `delivered`). */
  delaysMs: number[];
  published: number;
  delivered: number;
  /** A's redelivery answers: status and code (202 with `queued`). */
  redeliveries: Array<{ status: number; code?: string; queued?: number }>;
  /** Calls A's endpoints received (dead: each hangs until the dispatcher gives up on it). */
  deadEndpointCalls: number;
  /** The slow case: A's events published (each to its 10 endpoints) and the calls answered 200. */
  organizationAPublished: number;
  organizationAAnswered: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runFairnessScenario(options: FairnessScenarioOptions): Promise<FairnessScenarioResult> {
  const { runtime, call } = options;
  const events = options.events ?? 50;
  const intervalMs = options.intervalMs ?? 400;
  const demo = runtime.demo!;
  const receivers: ScriptedReceiver[] = [];
  try {
    const slow = options.organizationA === 'slow';
    const dead = await startScriptedReceiver(() => (slow ? { status: 200, afterMs: SLOW_ANSWER_MS } : 'hang'));
    const alive = await startScriptedReceiver(() => 200);
    receivers.push(dead, alive);
    const register = async (apiKey: string, url: string): Promise<string> => {
      const answer = await call('POST', WEBHOOKS, { headers: { 'x-api-key': apiKey }, body: { url, events: ['message.status'] } });
      if (answer.status !== 201) throw new Error(`registration answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body.data.id as string;
    };
    const deadIds: string[] = [];
    for (let index = 0; index < DEAD_ENDPOINTS; index += 1) deadIds.push(await register(demo.apiKey, `${dead.url}&endpoint=${index}`));
    await register(demo.otherOrg.apiKey, alive.url);

    const context = createCompositionContext(parseAppConfig(process.env));
    const dynamoDb = dynamoDbClients(context);
    // The dead case's redeliveries need A's log; the slow case publishes instead.
    const range = slow ? undefined : await seedLog(customerEventLogSection(context, dynamoDb)(), demo.organizationId);
    const publisher = customerEventPublisherSection(context, dynamoDb, webhookSubscribersSection(context, dynamoDb))();

    const publishedAt = new Map<string, number>();
    const redeliveries: FairnessScenarioResult['redeliveries'] = [];
    let publishing = options.flood ?? true;
    let organizationAPublished = 0;
    const floodRound = async (round: number) => {
      if (slow) {
        for (let index = 0; index < SLOW_EVENTS_PER_ROUND; index += 1) {
          const sourceKey = `fairness:a-slow:${round}:${index}`;
          await publisher.publish(
            demo.organizationId,
            newCustomerEvent({ type: 'message.status', createdAt: new Date(), sourceKey, data: { round, index, status: 'read' } }),
          );
          organizationAPublished += 1;
        }
        return;
      }
      const path = `${WEBHOOKS}/${deadIds[round % deadIds.length]}/redeliver`;
      const answer = await call('POST', path, { headers: { 'x-api-key': demo.apiKey }, body: range });
      redeliveries.push({ status: answer.status, code: answer.body?.data?.error?.code, queued: answer.body?.data?.queued });
    };
    const flood = (async () => {
      for (let round = 0; publishing; round += 1) {
        const started = Date.now();
        await floodRound(round);
        await sleep(Math.max(0, REDELIVER_EVERY_MS - (Date.now() - started)));
      }
    })();
    // A's first redelivery is on its way before B's first event.
    await sleep(500);
    for (let index = 0; index < events; index += 1) {
      const started = Date.now();
      const event = newCustomerEvent({ type: 'message.status', createdAt: new Date(), sourceKey: `fairness:b:${index}`, data: { index, status: 'delivered' } });
      publishedAt.set(event.id, started);
      await publisher.publish(demo.otherOrg.organizationId, event);
      await sleep(Math.max(0, intervalMs - (Date.now() - started)));
    }
    const deadline = Date.now() + (options.settleMs ?? 10_000);
    while (Date.now() < deadline && arrivals(alive, publishedAt).length < events) await sleep(100);
    publishing = false;
    await flood;
    const delaysMs = arrivals(alive, publishedAt);
    const organizationAAnswered = dead.requests.filter((request) => request.status === 200).length;
    return {
      delaysMs,
      published: events,
      delivered: delaysMs.length,
      redeliveries,
      deadEndpointCalls: dead.requests.length,
      organizationAPublished,
      organizationAAnswered,
    };
  } finally {
    // Hanging calls end at once (the dispatcher's batches finish), before the runtime stops.
    await Promise.all(receivers.map((receiver) => receiver.close()));
  }
}

/** Each of B's events' first arrival, from its publication. */
function arrivals(receiver: ScriptedReceiver, publishedAt: ReadonlyMap<string, number>): number[] {
  const first = new Map<string, number>();
  for (const request of receiver.requests) {
    const id = String(request.headers['x-webhook-id'] ?? '');
    if (publishedAt.has(id) && !first.has(id)) first.set(id, request.receivedAt - publishedAt.get(id)!);
  }
  return [...first.values()];
}

/** 1,000 `message.status` events in A's log within the last minute (recorded only: nothing queued). */
async function seedLog(log: { record(organizationId: string, event: ReturnType<typeof newCustomerEvent>): Promise<unknown> }, organizationId: string) {
  const from = new Date(Date.now() - 60_000);
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < LOGGED_EVENTS) {
        const index = next++;
        const createdAt = new Date(from.getTime() + index * 50);
        await log.record(
          organizationId,
          newCustomerEvent({ type: 'message.status', createdAt, sourceKey: `fairness:a:${index}`, data: { index, status: 'read' } }),
        );
      }
    }),
  );
  return { from: from.toISOString(), to: new Date(from.getTime() + LOGGED_EVENTS * 50).toISOString() };
}
