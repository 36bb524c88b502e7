/**
 * The delivery-event processor's use case: one Meta webhook POST (a batch of entries) applied to
 * the records of the organizations that own its numbers (docs/DELIVERY-STATUS.md).
 *
 * - Owner: a `messages` change belongs to the organization owning `metadata.phone_number_id`, a
 *   template change to the one owning the WABA (`entry.id`). Nobody's → the change is dropped.
 * - statuses[]: ours for the ledger (`b1:` callback data, or the message id found in the ledger)
 *   only after the tenant check (the job's organization and phone number id are the change's);
 *   `u1:` or not in the ledger → the /upstream side; found nowhere → dropped.
 * - messages[] → the inbound sink; template changes (status, quality, category) → the template sink.
 * - Each recorded inbound message is then attributed to the broadcast it answers (the `attribution`
 *   port: shared/outcomes/attribute-inbound.ts, docs/OUTCOMES.md "Attribution").
 *
 * Everything here is idempotent (the stores only add first-seen facts and max-register codes), so
 * a store error simply propagates: the queue redelivers the whole batch and it is applied again.
 * Logs carry ids only, never a phone number or a message's text.
 */
import { recordMetaLinkClicks, type MetaLinkClickPorts } from '../clicks/meta-link-clicks';
import type {
  AccountRefusalSink,
  IdentityPairSink,
  InboundMessage,
  InboundMessageSink,
  LedgerDeliveryStore,
  OptOutRecorder,
  OwnerDirectory,
  PhoneNumberOwner,
  TemplateStatusSink,
  UpstreamDeliveryStore,
} from './ports';
import type { MarketingPreferenceSink, ReplyAttribution } from './ports';
import type { CustomerEvent } from '../customer-events/ports';
import { ledgerEventTasks, publish, routeStatus, type SharedStatusContext, type StatusBatchContext } from './apply-status-events';
import { messageReceivedEvent, templateStatusEvent, templateUpdatedEvent } from './delivery-customer-events';
import { identityPairsOf } from './identity-pairs-of-change';
import type { ServiceMessageCounter } from './service-tier';
import { applyUserPreferences } from './apply-user-preferences';
import { parseWebhookBody, type MessagesChange, type TemplateAttributeChange, type TemplateStatusChange } from './webhook-payload.schema';

export interface DeliveryEventLog {
  info(message: string, attributes?: Record<string, unknown>): void;
  warn(message: string, attributes?: Record<string, unknown>): void;
}

export interface DeliveryEventPorts {
  owners: OwnerDirectory;
  ledger: LedgerDeliveryStore;
  /** Absent while no implementation is composed: such events are dropped and logged "no sink". */
  upstream?: UpstreamDeliveryStore;
  inbound?: InboundMessageSink;
  templates?: TemplateStatusSink;
  /** Meta's BSUID ↔ phone pairs shown by inbound messages and `sent` statuses (the inbox's contact book). Absent: not kept. */
  identities?: IdentityPairSink;
  /** The organization's opt-out list: a failure 131050 adds the recipient. Absent: not recorded. */
  optOuts?: OptOutRecorder;
  /** Delivered service messages per number and month (service-tier.ts): Meta's free tier. Absent: not counted. */
  serviceTier?: ServiceMessageCounter;
  /** The organization's opt-out list: `user_preferences` stop / resume (marketing). Absent: dropped and logged. */
  preferences?: MarketingPreferenceSink;
  /** A broadcast recipient's `failed` status with a refusal of the account (131042) holds its job and the account's others. Absent: not held. */
  accountRefusals?: AccountRefusalSink;
  /**
   * Customer events (message.status, message.received, template.status, template.updated) of what was applied, for the
   * organization's webhook endpoints. Absent: nothing is published.
   */
  events?: BatchEventPublisher;
  /** Replies, taps and STOPs attributed to broadcasts, and the delivered recipients' touches (docs/OUTCOMES.md "Attribution"). Absent: not attributed. */
  attribution?: ReplyAttribution;
  /** Ownership of received message ids for the /upstream wrapper (ReceivedMessageIds in shared/upstream/ports.ts). */
  receivedIds?: { recordReceivedMessageId(organizationId: string, wabaId: string, phoneNumberId: string, messageId: string): Promise<void> };
  /** Meta's click ids the tracked links' redirect counted (docs/OUTCOMES.md "Meta's click events"). Absent: Meta's link clicks are dropped. */
  clickCorrelations?: MetaLinkClickPorts['correlations'];
  log: DeliveryEventLog;
}

/** Publishes customer events; `forBatch` (when offered) gives one that reads each organization's subscribers once per batch. */
export interface BatchEventPublisher {
  publish(organizationId: string, event: CustomerEvent): Promise<void>;
  forBatch?(): { publish(organizationId: string, event: CustomerEvent): Promise<void> };
}

export interface WebhookBatchReport {
  /** Status events applied to a ledger entry or an /upstream send record (duplicates included: applying is idempotent). */
  applied: number;
  /** Status events whose record was not found (ledger entry or /upstream send). */
  notFound: number;
  /**
   * Of those, events carrying our `u1:` callback data: the /upstream wrapper writes its send record
   * just after Meta answers, so a fast `sent` event can arrive first. The caller retries the batch a
   * few times before accepting the loss (handle-delivery-records.ts).
   */
  upstreamNotYetRecorded: number;
  /** Status events dropped: unknown owner, another organization's job, no sink. */
  dropped: number;
  inbound: number;
  templates: number;
  /** Elements the parser could not read (logged). */
  skipped: number;
}

/** Store calls in flight per batch: enough to hide DynamoDB latency, few enough for one Lambda's sockets. */
const CONCURRENCY = 16;

type JobOwner = Awaited<ReturnType<LedgerDeliveryStore['jobOwner']>>;

export { USER_STOPPED_MARKETING } from './apply-status-events';

/** One webhook POST as the endpoint queued it. `redelivered`: the queue delivered it before, or it is a replay (see applyWebhookBatch). */
export interface WebhookBatchInput {
  body: unknown;
  receivedAt: Date;
  redelivered?: boolean;
}

/** What became of one batch of applyWebhookBatches: its report, and the first error that failed it (then it must be applied again). */
export interface WebhookBatchOutcome {
  report: WebhookBatchReport;
  failure?: { error: unknown };
}

/**
 * One webhook batch applied (a single POST): throws its first store error, after every write it
 * started has settled. `redelivered`: the queue delivered this batch before, or it is a replay (its
 * customer events are published again where it added nothing; known identity pairs are checked again).
 *
 * @example const report = await applyWebhookBatch(ports, JSON.parse(message.body), new Date(message.receivedAt));
 */
export async function applyWebhookBatch(
  ports: DeliveryEventPorts,
  body: unknown,
  receivedAt: Date,
  options: { redelivered?: boolean } = {},
): Promise<WebhookBatchReport> {
  const [outcome] = await applyWebhookBatches(ports, [{ body, receivedAt, ...options }]);
  if (outcome!.failure) throw outcome!.failure.error;
  return outcome!.report;
}

/**
 * Several webhook batches (one delivery of the queue) applied together, so the broadcast statuses
 * of all of them cost one read and at most one write per tally item: with one status per POST,
 * ten POSTs of one campaign usually touch one or two tally items. Each batch keeps its own report
 * and fails alone: an error of its own tasks fails it, a tally write fails every batch with an event
 * on that job (applying again is idempotent). Ownership, job and subscriber reads are shared.
 *
 * @example const outcomes = await applyWebhookBatches(ports, records.map(({ body, receivedAt }) => ({ body, receivedAt })));
 */
export async function applyWebhookBatches(ports: DeliveryEventPorts, batches: readonly WebhookBatchInput[]): Promise<WebhookBatchOutcome[]> {
  // Per delivery: POSTs usually carry many events of the same number and job.
  const phoneOwners = new Map<string, Promise<PhoneNumberOwner | undefined>>();
  const wabaOwners = new Map<string, Promise<{ organizationId: string } | undefined>>();
  const jobOwners = new Map<string, Promise<JobOwner>>();
  const cached = <K, T>(cache: Map<K, Promise<T>>, key: K, load: () => Promise<T>): Promise<T> => {
    let found = cache.get(key);
    if (!found) {
      found = load();
      cache.set(key, found);
    }
    return found;
  };
  const shared: SharedStatusContext & { ports: DeliveryEventPorts } = {
    ports: withBatchEvents(ports),
    jobOwnerOf: (jobId) => cached(jobOwners, jobId, () => ports.ledger.jobOwner(jobId)),
    ledgerEvents: new Map(),
  };

  const tasks: Array<() => Promise<void>> = [];
  const contexts = batches.map(({ body, receivedAt, redelivered }): BatchContext => {
    const report: WebhookBatchReport = { applied: 0, notFound: 0, upstreamNotYetRecorded: 0, dropped: 0, inbound: 0, templates: 0, skipped: 0 };
    const context: BatchContext = { ...shared, report, receivedAt, redelivered: redelivered === true };
    const failed = (error: unknown) => {
      context.failure ??= { error };
    };
    let parsed: ReturnType<typeof parseWebhookBody>;
    try {
      parsed = parseWebhookBody(body, receivedAt);
    } catch (error) {
      failed(error);
      return context;
    }
    for (const skipped of parsed.skipped) ports.log.warn('webhook element skipped', { ...skipped });
    report.skipped = parsed.skipped.length;
    const own: Array<() => Promise<void>> = [];
    for (const change of parsed.changes) {
      if (change.kind === 'messages') {
        const owner = cached(phoneOwners, change.phoneNumberId, () => ports.owners.ownerOfPhoneNumberId(change.phoneNumberId));
        own.push(...messagesChangeTasks(context, change, owner));
      } else if (change.kind === 'user-preferences') {
        const { phoneNumberId } = change;
        const owner =
          phoneNumberId === undefined
            ? cached(wabaOwners, change.entryId, () => ports.owners.ownerOfWaba(change.entryId))
            : cached(phoneOwners, phoneNumberId, () => ports.owners.ownerOfPhoneNumberId(phoneNumberId));
        own.push(() => applyUserPreferences(context.ports, change, owner));
      } else {
        const owner = cached(wabaOwners, change.wabaId, () => ports.owners.ownerOfWaba(change.wabaId));
        own.push(() => applyTemplateChange(context, change, owner));
      }
    }
    tasks.push(...own.map((task) => () => task().catch(failed)));
    return context;
  });
  await runAll(tasks, CONCURRENCY);
  // The broadcast statuses routed above, per job: one read and at most one write per tally item.
  await runAll(ledgerEventTasks(shared), CONCURRENCY);
  return contexts.map(({ report, failure }) => (failure ? { report, failure } : { report }));
}

/**
 * The ports with the batch's own publisher (subscribers read once per batch). The other ports are
 * reached through the prototype, not copied: a spread would build every lazily composed port.
 */
function withBatchEvents(ports: DeliveryEventPorts): DeliveryEventPorts {
  const events = ports.events?.forBatch?.();
  return events ? (Object.create(ports, { events: { value: events, enumerable: true } }) as DeliveryEventPorts) : ports;
}

interface BatchContext extends StatusBatchContext {
  ports: DeliveryEventPorts;
  report: WebhookBatchReport;
}

function messagesChangeTasks(context: BatchContext, change: MessagesChange, owner: Promise<PhoneNumberOwner | undefined>): Array<() => Promise<void>> {
  const { ports, report } = context;
  const withOwner = (apply: (owner: PhoneNumberOwner) => Promise<void>, drop: () => void) => async () => {
    const found = await owner;
    if (found) await apply(found);
    else drop();
  };
  const unowned = (kind: string, ids: Record<string, unknown>) => () => {
    ports.log.warn('dropped: phone number id owned by no organization', { kind, phoneNumberId: change.phoneNumberId, wabaId: change.entryId, ...ids });
  };
  // One call per change (not per element): the contact book reads the pairs in one batch and writes only new ones.
  const pairs = ports.identities ? identityPairsOf(change) : [];
  const pairTasks =
    pairs.length === 0
      ? []
      : [
          withOwner(
            (found) => ports.identities!.recordPairs(found.organizationId, pairs, { recheck: context.redelivered }),
            () => undefined,
          ),
        ];
  const linkClicks = change.linkClicks ?? [];
  const clickTasks =
    linkClicks.length === 0 || !ports.clickCorrelations
      ? []
      : [
          withOwner(
            (found) =>
              recordMetaLinkClicks(
                { correlations: ports.clickCorrelations!, events: ports.events, clock: { now: () => context.receivedAt } },
                found.organizationId,
                change.phoneNumberId,
                linkClicks,
              ).then(() => undefined),
            unowned('link-click', {}),
          ),
        ];
  return [
    ...pairTasks,
    ...clickTasks,
    ...change.statuses.map((event) =>
      withOwner(
        (found) => routeStatus(context, change.phoneNumberId, found, event),
        () => {
          report.dropped += 1;
          unowned('status', { messageId: event.messageId, stage: event.stage })();
        },
      ),
    ),
    ...change.messages.map((message) =>
      withOwner(
        async (found) => {
          if (!ports.inbound) {
            ports.log.warn('dropped: no sink', { kind: 'inbound', messageId: message.messageId, organizationId: found.organizationId });
            return;
          }
          await ports.inbound.recordInbound(found.organizationId, message, found.phoneNumber);
          // The organization may now reply to, react to or mark read this id through /upstream.
          await ports.receivedIds?.recordReceivedMessageId(found.organizationId, found.wabaId, message.phoneNumberId, message.messageId);
          await publish(context, found.organizationId, (now) => messageReceivedEvent(message, now));
          await attribute(context, found.organizationId, message);
          report.inbound += 1;
        },
        unowned('inbound', { messageId: message.messageId }),
      ),
    ),
  ];
}

/** The inbound message attributed to the broadcast it answers, then the customer events of what that added. */
async function attribute(context: BatchContext, organizationId: string, message: InboundMessage): Promise<void> {
  const { attribution } = context.ports;
  if (!attribution) return;
  const events = await attribution.inbound(organizationId, message, {
    jobOwnerOf: context.jobOwnerOf,
    redelivered: context.redelivered,
    receivedAt: context.receivedAt,
  });
  for (const event of events) await publish(context, organizationId, () => event);
}

async function applyTemplateChange(
  context: BatchContext,
  change: TemplateStatusChange | TemplateAttributeChange,
  owner: Promise<{ organizationId: string } | undefined>,
): Promise<void> {
  const { ports, report } = context;
  const ids = {
    wabaId: change.wabaId,
    templateId: change.update.templateId,
    ...(change.kind === 'template-status' ? { status: change.update.status } : { change: change.update.change }),
  };
  const found = await owner;
  if (!found) {
    ports.log.warn('dropped: business account owned by no organization', { kind: 'template', ...ids });
    return;
  }
  if (!ports.templates) {
    ports.log.warn('dropped: no sink', { kind: 'template', organizationId: found.organizationId, ...ids });
    return;
  }
  if (change.kind === 'template-status') {
    await ports.templates.recordTemplateStatus(found.organizationId, change.update);
    await publish(context, found.organizationId, (now) => templateStatusEvent(change.update, now));
  } else {
    await ports.templates.recordTemplateAttribute(found.organizationId, change.update);
    await publish(context, found.organizationId, (now) => templateUpdatedEvent(change.update, now));
  }
  report.templates += 1;
}

/** Runs every task, at most `limit` at once; each task records its own failure on its batch. */
async function runAll(tasks: ReadonlyArray<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
}
