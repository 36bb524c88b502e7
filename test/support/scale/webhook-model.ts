/**
 * Meta's status webhooks, modelled: every message Meta takes gives three statuses (sent, delivered,
 * read), posted in POSTs of 1 to 20 statuses (Meta batches under load) to the meta-webhook
 * function, which queues each POST on metaEvents; the delivery-events function (the real use case:
 * scale-delivery-events.ts) takes batches of 10 POSTs. The statuses' spread in time (delivered and
 * read come later) is not modelled: they are posted within the next flush.
 */
import type { Random } from './seeded-random';
import type { SqsModel } from './sqs-model';
import type { VirtualScheduler } from './virtual-scheduler';

/** One status of a POST, as Meta reports it. */
export interface PostedStatus {
  stage: 'sent' | 'delivered' | 'read';
  messageId: string;
  recipientId: string;
  /** Our callback data (`b1:<job>:<chunk>:<index>`). */
  callbackData: string;
  /** Meta's time, in epoch seconds. */
  timestamp: number;
}

/** One webhook POST: one business number's statuses. */
export interface WebhookPost {
  organizationId: string;
  wabaId: string;
  phoneNumberId: string;
  statuses: PostedStatus[];
}

/** A message Meta took, as its statuses name it. */
export interface TakenMessage {
  phoneNumberId: string;
  callbackData: string;
  messageId: string;
  recipientId: string;
}

const STAGES = ['sent', 'delivered', 'read'] as const;
export const STATUSES_PER_MESSAGE = STAGES.length;
const FLUSH_MS = 250;

export class WebhookModel {
  private pending = new Map<string, PostedStatus[]>();
  private flushing = false;
  posts = 0;
  statuses = 0;
  applied = 0;

  constructor(
    private readonly time: VirtualScheduler,
    private readonly metaEvents: SqsModel<WebhookPost>,
    private readonly random: Random,
    private readonly ownerOf: (phoneNumberId: string) => { organizationId: string; wabaId: string },
  ) {}

  /** A message Meta took: its statuses wait for the next POST of its business number. */
  taken(message: TakenMessage): void {
    let list = this.pending.get(message.phoneNumberId);
    if (!list) {
      list = [];
      this.pending.set(message.phoneNumberId, list);
    }
    const timestamp = Math.floor(this.time.nowMs() / 1000);
    for (const stage of STAGES)
      list.push({ stage, messageId: message.messageId, recipientId: message.recipientId, callbackData: message.callbackData, timestamp });
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
      const owner = this.ownerOf(number);
      for (let start = 0; start < list.length; ) {
        const size = 1 + Math.floor(this.random() * 20);
        const statuses = list.slice(start, start + size);
        start += size;
        this.posts += 1;
        this.statuses += statuses.length;
        this.metaEvents.send([{ ...owner, phoneNumberId: number, statuses }], number);
      }
    }
  }
}
