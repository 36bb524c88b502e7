/**
 * Meta's status webhooks and the delivery-events consumer, modelled: every message Meta takes
 * gives three statuses (sent, delivered, read), posted in POSTs of 1 to 20 statuses (Meta batches
 * under load) to the meta-webhook function, which queues each POST on metaEvents; the
 * delivery-events function takes batches of 10 POSTs. Its work is modelled from the measured
 * figures (docs/SCALE.md: ~20 ms per invocation plus ~1.3 ms per status) and its writes are
 * charged to the DynamoDB model: per status a fact update on the chunk's ledger partition and a
 * tally update on the job's partition. The statuses it applied are handed on (`applied`): the
 * customer events of subscribing organizations. The statuses' spread in time (delivered and read
 * come later) is not modelled: they are posted within the next flush.
 */
import type { DynamoModel } from './dynamo-model';
import type { BatchHandler } from './lambda-event-source-model';
import type { Random } from './seeded-random';
import type { SqsModel } from './sqs-model';
import type { VirtualScheduler } from './virtual-scheduler';

/** One webhook POST: the ledger entries (callback data) its statuses are about. */
export interface WebhookPost {
  /** The business number's organization (a POST is about one number). */
  organizationId: string;
  statuses: string[];
}

export const STATUSES_PER_MESSAGE = 3;
const FLUSH_MS = 250;

export class WebhookModel {
  private pending = new Map<string, string[]>();
  private flushing = false;
  posts = 0;
  statuses = 0;
  applied = 0;

  constructor(
    private readonly time: VirtualScheduler,
    private readonly metaEvents: SqsModel<WebhookPost>,
    private readonly random: Random,
    private readonly organizationOf: (phoneNumberId: string) => string,
  ) {}

  /** A message Meta took: its statuses wait for the next POST of its business number. */
  taken(phoneNumberId: string, callbackData: string): void {
    let list = this.pending.get(phoneNumberId);
    if (!list) {
      list = [];
      this.pending.set(phoneNumberId, list);
    }
    for (let index = 0; index < STATUSES_PER_MESSAGE; index += 1) list.push(callbackData);
    if (!this.flushing) {
      this.flushing = true;
      this.time.at(FLUSH_MS, () => this.flush());
    }
  }

  /** Posts what is pending, per number, in POSTs of 1-20 statuses (each POST one metaEvents message). */
  private flush(): void {
    this.flushing = false;
    const pending = this.pending;
    this.pending = new Map();
    for (const [number, list] of pending) {
      for (let start = 0; start < list.length; ) {
        const size = 1 + Math.floor(this.random() * 20);
        const statuses = list.slice(start, start + size);
        start += size;
        this.posts += 1;
        this.statuses += statuses.length;
        this.metaEvents.send([{ organizationId: this.organizationOf(number), statuses }], number);
      }
    }
  }

  /**
   * The delivery-events function, modelled: CPU time per status, writes on the job's and the
   * chunk's partitions; then each POST's statuses are handed to `applied` (the customer events).
   */
  handler(time: VirtualScheduler, dynamo: DynamoModel, applied: (organizationId: string, statuses: readonly string[]) => void): BatchHandler<WebhookPost> {
    return async (messages) => {
      const statuses = messages.flatMap((message) => message.body.statuses);
      await time.sleep(20 + 1.3 * statuses.length);
      const writes = new Map<string, number>();
      for (const callbackData of statuses) {
        const [, jobId, chunkIndex] = callbackData.split(':');
        writes.set(`LEDGER#${jobId}#${chunkIndex}`, (writes.get(`LEDGER#${jobId}#${chunkIndex}`) ?? 0) + 1);
        writes.set(`JOB#${jobId}`, (writes.get(`JOB#${jobId}`) ?? 0) + 1);
      }
      await Promise.all([...writes].map(([key, units]) => dynamo.charge(key, units)));
      this.applied += statuses.length;
      for (const message of messages) applied(message.body.organizationId, message.body.statuses);
      return { failedIds: [] };
    };
  }
}
