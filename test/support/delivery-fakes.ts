/**
 * In-memory ports of the delivery-event processor. The ledger store keeps the same two registers
 * as the DynamoDB adapter (first-seen facts per entry, a max-register tally code per recipient),
 * so a unit test can read a recipient's status and the job's counts after a batch.
 */
import type { DeliveryEventLog } from '../../shared/delivery/apply-webhook-batch';
import type {
  ApplyResult,
  InboundMessage,
  JobOwnerRecord,
  StatusApplyResult,
  LedgerLocation,
  InboundMessageSink,
  LedgerDeliveryStore,
  OwnerDirectory,
  PhoneNumberOwner,
  StatusEvent,
  TemplateAttributeUpdate,
  TemplateStatusSink,
  TemplateStatusUpdate,
  UpstreamDeliveryStore,
} from '../../shared/delivery/ports';
import {
  countTallyCode,
  emptyDeliveryCounts,
  recipientStatusOf,
  addedFactResult,
  factsAfterEvent,
  tallyCodeOfFacts,
  type DeliveryFacts,
  type SendOutcome,
  type TallyCode,
} from '../../shared/delivery/recipient-status';
import type { ServiceMessageCounter } from '../../shared/delivery/service-tier';

export class FakeOwnerDirectory implements OwnerDirectory {
  readonly phoneNumbers = new Map<string, PhoneNumberOwner>();
  readonly wabas = new Map<string, string>();
  lookups = 0;

  async ownerOfPhoneNumberId(phoneNumberId: string): Promise<PhoneNumberOwner | undefined> {
    this.lookups += 1;
    return this.phoneNumbers.get(phoneNumberId);
  }

  async ownerOfWaba(wabaId: string): Promise<{ organizationId: string } | undefined> {
    this.lookups += 1;
    const organizationId = this.wabas.get(wabaId);
    return organizationId ? { organizationId } : undefined;
  }
}

interface FakeEntry {
  outcome?: SendOutcome;
  messageId?: string;
  facts: DeliveryFacts;
}

const locationKey = (jobId: string, chunkIndex: number, index: number) => `${jobId}#${chunkIndex}#${index}`;

export class FakeLedgerDeliveryStore implements LedgerDeliveryStore {
  readonly jobs = new Map<string, JobOwnerRecord>();
  readonly entries = new Map<string, FakeEntry>();
  readonly tally = new Map<string, TallyCode>();
  jobOwnerReads = 0;
  /** Throws on the n-th event applied (1-based, across applyEvents calls) when set: the events before it stay applied, like a batch whose later write failed. */
  failOnApply?: number;
  private applyCalls = 0;
  /** applyEvents calls, with their number of events (the adapter reads and writes once per tally item of a call). */
  readonly applyBatches: number[] = [];

  addJob(jobId: string, organizationId: string, phoneNumberId: string, recipientCount = 100_000, campaignId?: string): void {
    this.jobs.set(jobId, { organizationId, phoneNumberId, recipientCount, ...(campaignId === undefined ? {} : { campaignId }) });
  }

  /** Sets what attribution reads of a job: its window and its quick-reply buttons. */
  setAttribution(jobId: string, settings: Pick<JobOwnerRecord, 'attributionWindowHours' | 'quickReplies'>): void {
    this.jobs.set(jobId, { ...this.jobs.get(jobId)!, ...settings });
  }

  /** A recipient the worker recorded (outcome + message id) and, like the worker, its tally code when absent. */
  addEntry(jobId: string, chunkIndex: number, index: number, outcome?: SendOutcome & { messageId?: string; tallyCode?: TallyCode }): void {
    this.entries.set(locationKey(jobId, chunkIndex, index), { outcome, messageId: outcome?.messageId, facts: {} });
    const key = locationKey(jobId, 0, index);
    if (outcome?.tallyCode && !this.tally.has(key)) this.tally.set(key, outcome.tallyCode);
  }

  entry(jobId: string, chunkIndex: number, index: number): FakeEntry | undefined {
    return this.entries.get(locationKey(jobId, chunkIndex, index));
  }

  statusOf(jobId: string, chunkIndex: number, index: number, now: Date) {
    const entry = this.entry(jobId, chunkIndex, index);
    return recipientStatusOf(entry?.outcome, entry?.facts ?? {}, now);
  }

  tallyOf(jobId: string, index: number): TallyCode | undefined {
    return this.tally.get(locationKey(jobId, 0, index));
  }

  countsOf(jobId: string, now: Date) {
    const counts = emptyDeliveryCounts();
    for (const [key, code] of this.tally) if (key.startsWith(`${jobId}#`)) countTallyCode(counts, code, now);
    return counts;
  }

  async jobOwner(jobId: string) {
    this.jobOwnerReads += 1;
    return this.jobs.get(jobId);
  }

  async locateMessage(messageId: string) {
    for (const [key, entry] of this.entries) {
      if (entry.messageId !== messageId) continue;
      const [jobId, chunkIndex, index] = key.split('#');
      return { jobId: jobId!, chunkIndex: Number(chunkIndex), index: Number(index) };
    }
    return undefined;
  }

  async applyEvents(jobId: string, events: ReadonlyArray<{ location: LedgerLocation; event: StatusEvent }>): Promise<StatusApplyResult[]> {
    this.applyBatches.push(events.length);
    return events.map(({ location, event }) => {
      this.applyCalls += 1;
      if (this.failOnApply === this.applyCalls) throw new Error('store down');
      const entry = this.entry(jobId, location.chunkIndex, location.index);
      if (!entry) return 'not-found';
      const before = JSON.stringify(entry.facts);
      const deliveredBefore = entry.facts.deliveredAt !== undefined;
      entry.facts = factsAfterEvent(entry.facts, event);
      // Like the adapter: an outcome without a message id (UNKNOWN) learns it from the events.
      if (entry.outcome?.status !== 'SENT') entry.messageId ??= event.messageId;
      const key = locationKey(jobId, 0, location.index);
      const stored = this.tally.get(key);
      const code = tallyCodeOfFacts(entry.facts);
      if (code !== undefined && (stored === undefined || stored < code)) this.tally.set(key, code);
      if (JSON.stringify(entry.facts) === before) return 'unchanged';
      return addedFactResult(event.stage, deliveredBefore);
    });
  }
}

export class RecordingUpstreamStore implements UpstreamDeliveryStore {
  readonly events: Array<{ organizationId: string; event: StatusEvent }> = [];
  knownMessageIds = new Set<string>();

  async applyEvent(organizationId: string, event: StatusEvent): Promise<ApplyResult> {
    const known = event.reference?.kind === 'upstream-send' || this.knownMessageIds.has(event.messageId);
    if (known) this.events.push({ organizationId, event });
    return known ? 'applied' : 'not-found';
  }
}

export class RecordingInboundSink implements InboundMessageSink {
  readonly messages: Array<{ organizationId: string; message: InboundMessage }> = [];
  async recordInbound(organizationId: string, message: InboundMessage): Promise<void> {
    this.messages.push({ organizationId, message });
  }
}

export class RecordingTemplateSink implements TemplateStatusSink {
  readonly updates: Array<{ organizationId: string; update: TemplateStatusUpdate }> = [];
  async recordTemplateStatus(organizationId: string, update: TemplateStatusUpdate): Promise<void> {
    this.updates.push({ organizationId, update });
  }
  readonly attributes: Array<{ organizationId: string; update: TemplateAttributeUpdate }> = [];
  async recordTemplateAttribute(organizationId: string, update: TemplateAttributeUpdate): Promise<void> {
    this.attributes.push({ organizationId, update });
  }
}

export class RecordingLog implements DeliveryEventLog {
  readonly lines: Array<{ level: 'info' | 'warn'; message: string; attributes?: Record<string, unknown> }> = [];
  info(message: string, attributes?: Record<string, unknown>): void {
    this.lines.push({ level: 'info', message, attributes });
  }
  warn(message: string, attributes?: Record<string, unknown>): void {
    this.lines.push({ level: 'warn', message, attributes });
  }
  text(): string {
    return JSON.stringify(this.lines);
  }
}

/* -------------------------------------------------------- webhook bodies */

export interface StatusSpec {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed' | string;
  timestamp?: number;
  recipient?: string;
  callbackData?: string;
  error?: { code: number; title: string };
  /** Meta's `pricing` object as sent (e.g. `{ billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' }`); absent: none. */
  pricing?: Record<string, unknown>;
}

export const statusOf = (spec: StatusSpec): Record<string, unknown> => ({
  id: spec.id,
  status: spec.status,
  timestamp: String(spec.timestamp ?? 1_767_000_000),
  recipient_id: spec.recipient ?? '15550001111',
  ...(spec.callbackData ? { biz_opaque_callback_data: spec.callbackData } : {}),
  ...(spec.error ? { errors: [{ ...spec.error, message: spec.error.title, error_data: { details: 'x' } }] } : {}),
  conversation: { id: 'c1', origin: { type: 'marketing' } },
  ...(spec.pricing ? { pricing: spec.pricing } : {}),
});

/** A webhook body with one `messages` change per element of `values`. */
export function webhookBody(
  changes: Array<{ wabaId?: string; phoneNumberId: string; displayPhoneNumber?: string; statuses?: unknown[]; messages?: unknown[]; contacts?: unknown[] }>,
): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: changes.map((change) => ({
      id: change.wabaId ?? 'waba-1',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { phone_number_id: change.phoneNumberId, display_phone_number: change.displayPhoneNumber ?? '+1 555-000-0000' },
            ...(change.statuses ? { statuses: change.statuses } : {}),
            ...(change.messages ? { messages: change.messages } : {}),
            ...(change.contacts ? { contacts: change.contacts } : {}),
          },
        },
      ],
    })),
  };
}

/* -------------------------------------------------------- service tier */

/** Delivered service messages per number and month, once per message id (as DynamoDbServiceMessageCounter). */
export class InMemoryServiceMessageCounter implements ServiceMessageCounter {
  private readonly counts = new Map<string, number>();
  private readonly counted = new Map<string, { ordinal: number; month: string }>();

  async countDelivery(phoneNumberId: string, month: string, messageId: string): Promise<{ ordinal: number; month: string }> {
    const markerKey = `${phoneNumberId}\n${messageId}`;
    const known = this.counted.get(markerKey);
    if (known) return { ...known };
    const counterKey = `${phoneNumberId}\n${month}`;
    const ordinal = (this.counts.get(counterKey) ?? 0) + 1;
    this.counts.set(counterKey, ordinal);
    this.counted.set(markerKey, { ordinal, month });
    return { ordinal, month };
  }

  async deliveriesIn(phoneNumberId: string, month: string): Promise<number> {
    return this.counts.get(`${phoneNumberId}\n${month}`) ?? 0;
  }
}
