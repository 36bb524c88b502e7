/**
 * The `statuses[]` part of a webhook batch (apply-webhook-batch.ts): each status event is routed
 * (first) to a broadcast recipient or an /upstream send; the broadcast ones are then applied per job
 * in one store call, so a batch costs one read and at most one write per tally item
 * (docs/DELIVERY-STATUS.md "What one webhook batch writes").
 *
 * - Ledger: our `b1:` callback data, or the message id's WAMID record; kept only after the tenant
 *   check (the job's organization and phone number id are the change's) and when the index is one
 *   of the job's recipients.
 * - A `message.status` customer event (and the opt-out of a failure 131050; the account hold of a
 *   failure 131042: shared/broadcast/account-hold.ts) follows each event that
 *   added a fact; not a duplicate, unless the batch is a redelivery: then its earlier attempt may
 *   have written the fact and failed before publishing (the event id derives from the fact, so the
 *   publisher keeps one).
 */
import type { CallbackReference } from './callback-data';
import type { CustomerEvent } from '../customer-events/ports';
import { messageStatusEvent } from './delivery-customer-events';
import { isFreeformJobId, priceServiceDelivery, type ServiceMessageCounter } from './service-tier';
import type {
  AccountRefusalSink,
  LedgerDeliveryStore,
  LedgerLocation,
  OptOutRecorder,
  PhoneNumberOwner,
  ReplyAttribution,
  StatusApplyResult,
  StatusEvent,
  UpstreamDeliveryStore,
} from './ports';

/** What the status part uses of the processor's ports (DeliveryEventPorts). */
export interface StatusEventPorts {
  ledger: LedgerDeliveryStore;
  upstream?: UpstreamDeliveryStore;
  optOuts?: OptOutRecorder;
  /** Delivered service messages per number and month (service-tier.ts). Absent: not counted, and a free-form status without pricing stays unpriced. */
  serviceTier?: ServiceMessageCounter;
  accountRefusals?: AccountRefusalSink;
  /** A recipient's first `delivered` fact records their touch (docs/OUTCOMES.md "Attribution"). Absent: no touch kept. */
  attribution?: Pick<ReplyAttribution, 'delivered'>;
  events?: { publish(organizationId: string, event: CustomerEvent): Promise<void> };
  log: { warn(message: string, attributes?: Record<string, unknown>): void };
}

/** The status counts of the batch's report (WebhookBatchReport). */
export interface StatusEventReport {
  applied: number;
  notFound: number;
  upstreamNotYetRecorded: number;
  dropped: number;
}

type JobOwner = Awaited<ReturnType<LedgerDeliveryStore['jobOwner']>>;

/** What the webhook batches applied together share: the ports, the job reads and the routed broadcast events. */
export interface SharedStatusContext {
  ports: StatusEventPorts;
  jobOwnerOf(jobId: string): Promise<JobOwner>;
  /** Broadcast events routed so far (of every batch), by job, applied by ledgerEventTasks. */
  ledgerEvents: Map<string, LedgerEvent[]>;
}

/** One webhook batch's side. */
export interface StatusBatchContext extends SharedStatusContext {
  report: StatusEventReport;
  /** When the webhook reached the platform: the `createdAt` of the customer events it gives rise to (the same on a redelivery). */
  receivedAt: Date;
  /** The batch was received before (SQS redelivery): events that add nothing are published again (see above). */
  redelivered: boolean;
  /** The first error of this batch: it is not acknowledged and will be applied again. */
  failure?: { error: unknown };
}

interface LedgerEvent {
  location: LedgerLocation;
  event: StatusEvent;
  organizationId: string;
  phoneNumberId: string;
  /** A campaign's job: its campaign (on the `message.status` event). */
  campaignId?: string;
  /** The job's attribution window (the touch of a `delivered` fact). */
  attributionWindowHours?: number;
  /** The webhook batch it came in: its report, time and redelivery flag, and where a failure is recorded. */
  batch: StatusBatchContext;
}

/** Routes one status event: a broadcast recipient's is kept for applyLedgerEvents, an /upstream send's is applied now. */
export async function routeStatus(context: StatusBatchContext, phoneNumberId: string, owner: PhoneNumberOwner, event: StatusEvent): Promise<void> {
  const { ports, report } = context;
  const ids = { messageId: event.messageId, stage: event.stage, organizationId: owner.organizationId };
  const reference: CallbackReference | undefined = event.reference;

  let location: LedgerLocation | undefined;
  if (reference?.kind === 'ledger') location = { jobId: reference.jobId, chunkIndex: reference.chunkIndex, index: reference.index };
  else if (reference === undefined) location = await ports.ledger.locateMessage(event.messageId);

  if (location) {
    const job = await context.jobOwnerOf(location.jobId);
    if (!job || job.organizationId !== owner.organizationId || job.phoneNumberId !== phoneNumberId) {
      report.dropped += 1;
      ports.log.warn(job ? 'dropped: job of another organization or number' : 'dropped: job not found', { ...ids, jobId: location.jobId });
      return;
    }
    if (location.index >= job.recipientCount) {
      // Not one of the job's recipients: never creates attributes.
      report.notFound += 1;
      ports.log.warn('dropped: ledger entry not found', { ...ids, jobId: location.jobId, chunkIndex: location.chunkIndex, index: location.index });
      return;
    }
    // Counted before the ledger write: a batch that fails after it is applied again, and the count keeps one per message.
    const priced = await priceServiceDelivery(ports.serviceTier, phoneNumberId, event, isFreeformJobId(location.jobId));
    const pending = context.ledgerEvents.get(location.jobId) ?? [];
    const { campaignId, attributionWindowHours } = job;
    pending.push({
      location,
      event: priced,
      organizationId: owner.organizationId,
      phoneNumberId,
      batch: context,
      ...(campaignId === undefined ? {} : { campaignId }),
      ...(attributionWindowHours === undefined ? {} : { attributionWindowHours }),
    });
    context.ledgerEvents.set(location.jobId, pending);
    return;
  }
  // Meta's tier is the number's: a service message of /upstream, or of another app on the number, counts too.
  await applyUpstreamStatus(context, phoneNumberId, owner, await priceServiceDelivery(ports.serviceTier, phoneNumberId, event, false), reference);
}

async function applyUpstreamStatus(
  context: StatusBatchContext,
  phoneNumberId: string,
  owner: PhoneNumberOwner,
  event: StatusEvent,
  reference: CallbackReference | undefined,
): Promise<void> {
  const { ports, report } = context;
  const ids = { messageId: event.messageId, stage: event.stage, organizationId: owner.organizationId };
  if (!ports.upstream) {
    report.dropped += 1;
    ports.log.warn('dropped: no sink', { kind: 'upstream-status', ...ids, ...(reference?.kind === 'upstream-send' ? { sendId: reference.sendId } : {}) });
    return;
  }
  const result = await ports.upstream.applyEvent(owner.organizationId, event);
  if (result === 'applied') {
    report.applied += 1;
    await recordOptOutOf(ports, owner.organizationId, event);
    await publish(context, owner.organizationId, (now) => messageStatusEvent({ kind: 'upstream' }, event, phoneNumberId, now));
  } else {
    report.notFound += 1;
    if (reference?.kind === 'upstream-send') report.upstreamNotYetRecorded += 1;
    ports.log.warn('dropped: message found in no record', ids);
  }
}

/**
 * The tasks applying the routed broadcast events: one store call per job (all of its tally items
 * at once, across the batches applied together), then the opt-outs and customer events of what it
 * added. A batch that already failed is skipped: it is applied again whole. A failed store call
 * fails every batch with an event on that job; a failed publish fails only its event's batch.
 */
export function ledgerEventTasks(context: SharedStatusContext): Array<() => Promise<void>> {
  return [...context.ledgerEvents].map(([jobId, routed]) => async () => {
    const events = routed.filter(({ batch }) => !batch.failure);
    if (events.length === 0) return;
    let results: StatusApplyResult[];
    try {
      results = await context.ports.ledger.applyEvents(jobId, events);
    } catch (error) {
      for (const { batch } of events) batch.failure ??= { error };
      return;
    }
    await recordTouches(context.ports, events, results);
    for (const [position, result] of results.entries()) {
      const routedEvent = events[position]!;
      await afterLedgerEvent(routedEvent, result).catch((error: unknown) => {
        routedEvent.batch.failure ??= { error };
      });
    }
  });
}

async function afterLedgerEvent({ location, event, organizationId, phoneNumberId, campaignId, batch }: LedgerEvent, result: StatusApplyResult): Promise<void> {
  const { ports, report } = batch;
  if (result === 'not-found') {
    report.notFound += 1;
    ports.log.warn('dropped: ledger entry not found', { messageId: event.messageId, stage: event.stage, organizationId, ...location });
    return;
  }
  // Duplicates count as applied (applying is idempotent), as before the facts moved to the tally.
  report.applied += 1;
  if (result === 'unchanged' && !batch.redelivered) return;
  await recordOptOutOf(ports, organizationId, event);
  if (event.stage === 'failed' && event.error && ports.accountRefusals) await ports.accountRefusals.failedWith(location.jobId, event.error);
  const subject = { kind: 'ledger' as const, jobId: location.jobId, index: location.index, ...(campaignId === undefined ? {} : { campaignId }) };
  await publish(batch, organizationId, (now) => messageStatusEvent(subject, event, phoneNumberId, now));
}

/**
 * The people's touches (docs/OUTCOMES.md "Attribution") of the job's `delivered` (or, when Meta skipped it, `read`) facts just added
 * (every one again on a redelivered batch, harmlessly): written together, so a batch of deliveries
 * waits for one round of writes. A failed write fails each batch that had a delivery in it.
 */
async function recordTouches(ports: StatusEventPorts, events: readonly LedgerEvent[], results: readonly StatusApplyResult[]): Promise<void> {
  if (!ports.attribution) return;
  // `read` too: Meta skips `delivered` when both happen together. A read after the delivery
  // (`applied-after-delivery`) keeps the delivery's touch: nothing to write.
  const delivered = events.filter(
    ({ event, batch }, position) =>
      (event.stage === 'delivered' || event.stage === 'read') && (results[position] === 'applied' || (results[position] === 'unchanged' && batch.redelivered)),
  );
  if (delivered.length === 0) return;
  const deliveries = delivered.map(({ location, event, campaignId, attributionWindowHours }) => ({
    location,
    at: event.timestamp,
    personKeys: event.recipientUserId === undefined ? [event.recipientId] : [event.recipientId, event.recipientUserId],
    ...(campaignId === undefined ? {} : { campaignId }),
    ...(attributionWindowHours === undefined ? {} : { attributionWindowHours }),
  }));
  // One job, one organization.
  await ports.attribution.delivered(delivered[0]!.organizationId, deliveries).catch((error: unknown) => {
    for (const { batch } of delivered) batch.failure ??= { error };
  });
}

/** Meta's error 131050: the user stopped marketing messages from the business. */
export const USER_STOPPED_MARKETING = 131050;

/** A failure 131050 puts the recipient on the organization's opt-out list (idempotent: a repeat keeps the first entry). */
async function recordOptOutOf(ports: StatusEventPorts, organizationId: string, event: StatusEvent): Promise<void> {
  if (event.stage === 'failed' && event.error?.code === USER_STOPPED_MARKETING && ports.optOuts) {
    await ports.optOuts.recordStoppedMarketing(organizationId, event.recipientId);
  }
}

/**
 * After the record was applied, so a crash in between re-applies (harmlessly) and publishes on the
 * redelivery: at least once, with the same event id.
 *
 * @example await publish(context, organizationId, (now) => templateStatusEvent(update, now));
 */
export async function publish(
  { ports, receivedAt }: { ports: Pick<StatusEventPorts, 'events'>; receivedAt: Date },
  organizationId: string,
  build: (createdAt: Date) => CustomerEvent,
): Promise<void> {
  if (ports.events) await ports.events.publish(organizationId, build(receivedAt));
}
