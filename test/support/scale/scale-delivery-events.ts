/**
 * The delivery-events consumer in the scale simulation: the REAL use case
 * (shared/delivery/apply-webhook-batch.ts `applyWebhookBatches`: parsing Meta's POSTs, the owner
 * and tenant checks, the ledger's facts, the `message.status` customer events) on in-memory ports
 * whose calls take the DynamoDB model's round trips. The ledger's delivery side reads the jobs and
 * entries the real chunk worker wrote (the simulation's broadcast store) and keeps each entry's
 * stages; its writes are charged as the DynamoDB adapter makes them: one read of the tally items
 * concerned, then one write per 50-recipient tally item on the job's partition.
 * Modelled: the Lambda's CPU per status (measured, docs/SCALE.md), the SQS record (the POST itself).
 */
import { applyWebhookBatches, type BatchEventPublisher, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import type { JobOwnerRecord, LedgerDeliveryStore, LedgerLocation, StatusApplyResult, StatusEvent } from '../../../shared/delivery/ports';
import { addedFactResult, TALLY_BUCKET_SIZE } from '../../../shared/delivery/recipient-status';
import type { SenderAccount } from '../../../shared/broadcast/ports';
import { FakeOwnerDirectory, statusOf, webhookBody } from '../delivery-fakes';
import type { IndexedBroadcastRepository } from './indexed-broadcast-repository';
import { meteredStore, type DynamoModel } from './dynamo-model';
import type { BatchHandler } from './lambda-event-source-model';
import type { VirtualScheduler } from './virtual-scheduler';
import type { WebhookPost } from './webhook-model';

/** The Lambda's own CPU per status (docs/SCALE.md: ~1.3 ms per status); its store calls take the model's round trips. */
const CPU_MS_PER_STATUS = 1.3;
const STAGE_BITS: Record<string, number> = { sent: 1, delivered: 2, read: 4, failed: 8 };

/** The ledger's delivery side over the simulation's broadcast store, charged to the DynamoDB model. */
export class ScaleLedgerDeliveryStore implements LedgerDeliveryStore {
  /** The stages seen per ledger entry (`<job>#<chunk>#<index>`), as bits: an event adds a fact once. */
  private readonly stages = new Map<string, number>();

  constructor(
    private readonly store: IndexedBroadcastRepository,
    private readonly dynamo: DynamoModel,
  ) {}

  async jobOwner(jobId: string): Promise<JobOwnerRecord | undefined> {
    await this.dynamo.call([]);
    const job = this.store.jobs.get(jobId);
    if (!job) return undefined;
    // A campaign's indexes span its chunks (as the adapter reads it).
    const campaignId = job.kind === 'template' ? job.campaignId : undefined;
    const recipientCount = campaignId === undefined ? job.totalRecipients : job.totalChunks * job.chunkSize;
    return { organizationId: job.organizationId, phoneNumberId: job.phoneNumberId, recipientCount, ...(campaignId === undefined ? {} : { campaignId }) };
  }

  async locateMessage(): Promise<LedgerLocation | undefined> {
    // Every status of the simulation carries our callback data.
    return undefined;
  }

  async applyEvents(jobId: string, events: ReadonlyArray<{ location: LedgerLocation; event: StatusEvent }>): Promise<StatusApplyResult[]> {
    const buckets = new Set(events.map(({ location }) => Math.floor(location.index / TALLY_BUCKET_SIZE)));
    // The tally items read (one BatchGet), then one UpdateItem per item.
    await this.dynamo.call([]);
    await this.dynamo.call([{ key: `JOB#${jobId}`, units: buckets.size }]);
    return events.map(({ location, event }) => {
      const id = `${jobId}#${location.chunkIndex}#${location.index}`;
      if (!this.store.ledger.has(id)) return 'not-found';
      const seen = this.stages.get(id) ?? 0;
      const bit = STAGE_BITS[event.stage] ?? 0;
      if ((seen & bit) !== 0) return 'unchanged';
      this.stages.set(id, seen | bit);
      return addedFactResult(event.stage, (seen & STAGE_BITS.delivered!) !== 0);
    });
  }
}

/** What the consumer's handler needs from the world. */
export interface DeliveryEventsSetup {
  time: VirtualScheduler;
  dynamo: DynamoModel;
  store: IndexedBroadcastRepository;
  accounts: readonly SenderAccount[];
  /** The customer-event publisher (customer-events-model.ts). */
  events: BatchEventPublisher;
  /** Told of the statuses each delivery applied. */
  applied: (count: number) => void;
}

const quiet = { info: () => undefined, warn: () => undefined };

/**
 * The delivery-events function: each SQS record one webhook POST, the delivery's records applied
 * together by the real use case; a record whose batch failed is handed back (redelivered).
 *
 * @example
 * const handler = deliveryEventsHandler({ time, dynamo, store, accounts, events, applied: (n) => (count += n) });
 */
export function deliveryEventsHandler(setup: DeliveryEventsSetup): BatchHandler<WebhookPost> {
  const owners = new FakeOwnerDirectory();
  for (const account of setup.accounts) {
    owners.phoneNumbers.set(account.phoneNumberId, { organizationId: account.organizationId, wabaId: account.wabaId });
    owners.wabas.set(account.wabaId, account.organizationId);
  }
  const ports: DeliveryEventPorts = {
    owners: meteredStore(owners, setup.dynamo),
    ledger: new ScaleLedgerDeliveryStore(setup.store, setup.dynamo),
    events: setup.events,
    log: quiet,
  };
  return async (messages) => {
    const statuses = messages.reduce((sum, message) => sum + message.body.statuses.length, 0);
    await setup.time.sleep(CPU_MS_PER_STATUS * statuses);
    const receivedAt = setup.time.now();
    const outcomes = await applyWebhookBatches(
      ports,
      messages.map((message) => ({ body: bodyOf(message.body), receivedAt, redelivered: message.receiveCount > 1 })),
    );
    const failedIds: number[] = [];
    outcomes.forEach((outcome, position) => {
      if (outcome.failure) failedIds.push(messages[position]!.id);
      else setup.applied(outcome.report.applied);
    });
    return { failedIds };
  };
}

/** The POST as Meta sends it: one `messages` change of the business number with its statuses. */
function bodyOf(post: WebhookPost): Record<string, unknown> {
  return webhookBody([
    {
      wabaId: post.wabaId,
      phoneNumberId: post.phoneNumberId,
      statuses: post.statuses.map((status) =>
        statusOf({ id: status.messageId, status: status.stage, timestamp: status.timestamp, recipient: status.recipientId, callbackData: status.callbackData }),
      ),
    },
  ]);
}
