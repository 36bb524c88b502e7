/**
 * fauxqs (1.9.2) as an SQS fair queue. On AWS a standard queue whose messages carry a
 * `MessageGroupId` is a fair queue: the group is the message's tenant, and when one tenant holds
 * a backlog SQS serves the quieter tenants' messages first, so the backlog does not lengthen their
 * dwell time (docs/SCALE.md "Fair queues"). fauxqs drops the group of a standard queue's message
 * and serves in the order sent. Two alignments, made once per process before the server starts:
 *
 * 1. A standard queue's message keeps the group it was sent with (and ReceiveMessage returns it as
 *    the `MessageGroupId` system attribute, as AWS does).
 * 2. A receive on a standard queue takes, for each message it returns, the oldest message of the
 *    tenant with the fewest messages in flight (counting those this receive already took); a message
 *    without a group is a tenant of its own, as on AWS. Within a tenant the order stays the order
 *    sent. The scan looks at the first {@link FAIR_SCAN_DEPTH} waiting messages.
 *
 * The local model is stricter than AWS, which only steps in once a tenant is "noisy" (more than 10 %
 * of the messages in flight and at least 30 of them): locally the quietest tenant always goes first,
 * so a test sees the rule at any size. Visibility timeouts, receive counts and the dead-letter
 * redrive are fauxqs's own and unchanged: nothing is received twice to reorder the queue (a receive
 * counts towards `maxReceiveCount`), the waiting messages are only reordered in place.
 *
 * Like the character check in emulators.ts, this changes the emulator, never the production code
 * or the wire format; it fails loudly when fauxqs's internals it relies on have moved.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importNativeEsm } from './native-import';

/**
 * How many waiting messages one receive looks through for a quieter tenant: bounds its cost on a deep
 * queue (about 0.4 ms of the emulator's CPU per receive at this depth, 2 ms at 10,000).
 */
export const FAIR_SCAN_DEPTH = 2_000;
/** fauxqs returns at most 10 messages per receive. */
const MAX_RECEIVE = 10;

/** The parts of a fauxqs message and queue this file reads (fauxqs/dist/sqs/sqsStore.js). */
interface FauxqsMessage {
  messageId: string;
  messageGroupId?: string;
}
interface FauxqsQueue {
  messages: FauxqsMessage[];
  inflightMessages: Map<string, { message: FauxqsMessage }>;
  isFifo(): boolean;
  processTimers(): void;
  dequeue(maxCount: number, ...rest: unknown[]): unknown[];
}
type CreateMessage = (body: string, attributes?: unknown, delaySeconds?: number, groupId?: string, deduplicationId?: string) => FauxqsMessage;
type ActionHandler = (body: Record<string, unknown>, ...rest: unknown[]) => unknown;

interface StoreModule {
  SqsQueue?: { prototype: FauxqsQueue };
  SqsStore?: { createMessage: CreateMessage };
}
interface RouterModule {
  SqsRouter?: { prototype: { register(action: string, handler: ActionHandler): void } };
}

const aligned = Symbol.for('whatsapp-platform.fauxqs-fair-queues');

/** A file of fauxqs's build (its internals), imported as Node loads it for fauxqs itself. */
export async function importFauxqsDist<T>(relativePath: string): Promise<T> {
  const file = (require.resolve.paths('fauxqs') ?? []).map((directory) => join(directory, 'fauxqs', 'dist', relativePath)).find(existsSync);
  if (!file) throw new Error('fauxqs is not installed where the local runtime can find it');
  return importNativeEsm<T>(pathToFileURL(file).href);
}

/**
 * Makes fauxqs's standard queues fair queues (idempotent; call before starting the server).
 *
 * @example
 * await alignFauxqsWithFairQueues();
 * const server = await startFauxqs({ port: 0, logger: false });
 */
export async function alignFauxqsWithFairQueues(): Promise<void> {
  const store = await importFauxqsDist<StoreModule>(join('sqs', 'sqsStore.js'));
  const router = await importFauxqsDist<RouterModule>(join('sqs', 'sqsRouter.js'));
  const queuePrototype = store.SqsQueue?.prototype;
  const storeClass = store.SqsStore;
  const routerPrototype = router.SqsRouter?.prototype;
  if (!queuePrototype?.dequeue || !queuePrototype.processTimers || !storeClass?.createMessage || !routerPrototype?.register) {
    throw new Error('fauxqs no longer has SqsQueue.dequeue, SqsStore.createMessage or SqsRouter.register: check how its standard queues treat MessageGroupId');
  }
  if ((queuePrototype.dequeue as unknown as Record<symbol, boolean>)[aligned]) return;
  keepGroupsOfStandardQueueMessages(storeClass, routerPrototype);
  serveQuietTenantsFirst(queuePrototype);
}

/** The groups of the send being handled, by body, taken in order as fauxqs creates its messages. */
let pendingGroups: Array<{ body: string; groupId: string }> | undefined;

function keepGroupsOfStandardQueueMessages(
  storeClass: { createMessage: CreateMessage },
  routerPrototype: { register(action: string, handler: ActionHandler): void },
): void {
  const createMessage = storeClass.createMessage.bind(storeClass);
  // fauxqs passes no group for a standard queue; the one the sender gave is taken from the request.
  storeClass.createMessage = (body, attributes, delaySeconds, groupId, deduplicationId) =>
    createMessage(body, attributes, delaySeconds, groupId ?? takePendingGroup(body), deduplicationId);
  const register = routerPrototype.register;
  routerPrototype.register = function (this: unknown, action: string, handler: ActionHandler) {
    const wrapped: ActionHandler =
      action === 'SendMessage' || action === 'SendMessageBatch'
        ? (body, ...rest) => {
            // fauxqs's send actions are synchronous: the groups are read while this request is handled.
            pendingGroups = groupsOfSend(body);
            try {
              return handler(body, ...rest);
            } finally {
              pendingGroups = undefined;
            }
          }
        : handler;
    return register.call(this, action, wrapped);
  };
}

function groupsOfSend(body: Record<string, unknown>): Array<{ body: string; groupId: string }> {
  const entries = Array.isArray(body.Entries) ? (body.Entries as Array<Record<string, unknown>>) : [body];
  return entries.flatMap((entry) =>
    typeof entry.MessageBody === 'string' && typeof entry.MessageGroupId === 'string' ? [{ body: entry.MessageBody, groupId: entry.MessageGroupId }] : [],
  );
}

function takePendingGroup(body: string): string | undefined {
  const index = pendingGroups?.findIndex((pending) => pending.body === body) ?? -1;
  return index < 0 ? undefined : pendingGroups!.splice(index, 1)[0]!.groupId;
}

function serveQuietTenantsFirst(queuePrototype: FauxqsQueue): void {
  const dequeue = queuePrototype.dequeue;
  const fairDequeue = function (this: FauxqsQueue, maxCount: number, ...rest: unknown[]): unknown[] {
    if (!this.isFifo()) {
      this.processTimers();
      moveFairPicksToFront(this.messages, inFlightByGroup(this), Math.min(maxCount, MAX_RECEIVE));
    }
    return dequeue.call(this, maxCount, ...rest);
  };
  (fairDequeue as unknown as Record<symbol, boolean>)[aligned] = true;
  queuePrototype.dequeue = fairDequeue;
}

/**
 * A message's tenant: its group, or (no group) the message itself, as AWS counts it. An object never
 * equals a group's string, so the two kinds of tenant cannot be confused.
 */
type Tenant = string | FauxqsMessage;
const tenantOf = (message: FauxqsMessage): Tenant => message.messageGroupId ?? message;

/** Messages in flight per group (a message without a group in flight is not waiting: it cannot be picked). */
function inFlightByGroup(queue: FauxqsQueue): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { message } of queue.inflightMessages.values()) {
    if (message.messageGroupId !== undefined) counts.set(message.messageGroupId, (counts.get(message.messageGroupId) ?? 0) + 1);
  }
  return counts;
}

/**
 * Reorders the waiting messages in place so the next `count` are the fair picks: each time the
 * oldest message of the tenant with the fewest in flight (ties: the tenant whose message is oldest).
 * Only the `count` best tenants at the start can be picked (a pick only raises its own tenant's
 * load), so one pass finds each tenant's first message and a second collects those few tenants'
 * messages: the cost stays linear in the messages scanned, however many tenants they hold.
 * `inFlight`: messages in flight per group. Exported for the unit test of the rule.
 *
 * @example
 * const queue = [a1, a2, a3, b1];
 * moveFairPicksToFront(queue, new Map([['A', 5]]), 2); // queue: [b1, a1, a2, a3]
 */
export function moveFairPicksToFront(messages: FauxqsMessage[], inFlight: ReadonlyMap<string, number>, count: number): void {
  const depth = Math.min(messages.length, FAIR_SCAN_DEPTH);
  let grouped = false;
  for (let index = 0; index < depth && !grouped; index += 1) grouped = messages[index]!.messageGroupId !== undefined;
  // No group at all: each message is a tenant of its own with none in flight, so the order sent is the fair order.
  if (!grouped) return;
  const firstIndex = new Map<Tenant, number>();
  for (let index = 0; index < depth; index += 1) {
    const tenant = tenantOf(messages[index]!);
    if (!firstIndex.has(tenant)) firstIndex.set(tenant, index);
  }
  if (firstIndex.size < 2) return;
  const loadOf = (tenant: Tenant): number => (typeof tenant === 'string' ? (inFlight.get(tenant) ?? 0) : 0);
  const candidates = [...firstIndex.entries()]
    .sort(([a, aFirst], [b, bFirst]) => loadOf(a) - loadOf(b) || aFirst - bFirst)
    .slice(0, count)
    .map(([tenant]) => ({ tenant, load: loadOf(tenant), positions: [] as number[] }));
  const byTenant = new Map(candidates.map((candidate) => [candidate.tenant, candidate]));
  for (let index = 0; index < depth; index += 1) {
    const candidate = byTenant.get(tenantOf(messages[index]!));
    if (candidate && candidate.positions.length < count) candidate.positions.push(index);
  }
  const picks: number[] = [];
  while (picks.length < count) {
    let best: (typeof candidates)[number] | undefined;
    for (const candidate of candidates) {
      if (candidate.positions.length === 0) continue;
      if (!best || candidate.load < best.load || (candidate.load === best.load && candidate.positions[0]! < best.positions[0]!)) best = candidate;
    }
    if (!best) break;
    picks.push(best.positions.shift()!);
    best.load += 1;
  }
  const picked = picks.map((index) => messages[index]!);
  for (const index of [...picks].sort((a, b) => b - a)) messages.splice(index, 1);
  messages.unshift(...picked);
}
