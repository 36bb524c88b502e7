/**
 * The sandbox's side of Meta's webhooks: for every accepted send it schedules the statuses Meta
 * would report (`sent`, then `delivered`, then `read`, or `sent` then `failed` for a recipient
 * with an async failure), and posts them signed to the configured URL; inbound messages and
 * template events (template-events.ts) are posted on request. A send of a paced template waits
 * for its hold before its statuses start.
 *
 * Each message's fate is drawn when it is accepted, from a seeded PRNG, so the same sequence of
 * sends meets the same rates every run. Timestamps are the events' own times (acceptance on the
 * sandbox's clock + the configured delay); duplicates, reordering and lateness change only when
 * the POSTs arrive, as with Meta, whose delivery order is not the events' order.
 */
import { DueQueue } from './due-queue';
import { errorDescription } from './graph-error-catalog';
import type { MessageIdGenerator } from './message-ids';
import { SandboxRequestError } from './sandbox-request-error';
import type { SandboxState } from './sandbox-state';
import { SandboxServiceTier } from './service-tier';
import type { TemplateStatus } from './sandbox-types';
import { IdentityEvents } from './identity-events';
import { inboundReplyPartsOf } from './inbound-reply';
import { TemplateEvents } from './template-events';
import type { UserDirectory } from './user-directory';
import {
  inboundMessageChange,
  statusEntry,
  statusError,
  statusesChange,
  webhookBody,
  type AcceptedSend,
  type BusinessNumber,
  type DeliveryStatus,
  type StatusEntry,
  type StatusError,
  type WebhookChange,
} from './webhook-payloads';
import { WebhookPoster, type OutgoingBody, type WebhookDelivery, type WebhookStats } from './webhook-poster';
import { WebhookSettings, type WebhookTarget } from './webhook-settings';

export type { AcceptedSend } from './webhook-payloads';
export type { InboundMessageInput, TemplateStatusInput } from './sandbox-types';

/** Gap between an event and its duplicate. */
const DUPLICATE_GAP_MS = 50;
const DEFAULT_DRAIN_TIMEOUT_MS = 60_000;

interface PlannedStatus {
  status: DeliveryStatus;
  /** Offset of the event itself from acceptance. */
  eventOffsetMs: number;
  /** Offset of its POST from acceptance. */
  arrivalOffsetMs: number;
  error?: StatusError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requiredString(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value.trim() === '') throw new SandboxRequestError(400, `${key} must be a non-empty string`);
  return value;
}

export class WebhookEmitter {
  readonly settings: WebhookSettings;
  private readonly due = new DueQueue(() => this.checkIdle());
  /** Open batches by phone number id. */
  private readonly batches = new Map<string, { number: BusinessNumber; target: WebhookTarget; statuses: StatusEntry[]; timer: NodeJS.Timeout }>();
  private readonly poster: WebhookPoster;
  private drainWaiters: Array<() => void> = [];
  /** Template status, quality and category events (template-events.ts). */
  readonly templates: TemplateEvents;
  /** Meta's free tier of service messages and exempt accounts (service-tier.ts). */
  readonly serviceTier = new SandboxServiceTier();
  /** A user's change of number and marketing preferences (identity-events.ts). */
  readonly identities: IdentityEvents;

  constructor(
    private readonly deps: { state: SandboxState; messageIds: MessageIdGenerator; users: UserDirectory },
    target?: WebhookTarget,
    log: (line: string) => void = (line) => console.warn(line),
  ) {
    this.settings = new WebhookSettings(target);
    this.poster = new WebhookPoster(
      () => this.settings.current,
      () => this.checkIdle(),
      log,
    );
    this.templates = new TemplateEvents(deps.state, (wabaId, change, kind, at) => {
      const active = this.settings.activeTarget();
      if (active !== undefined) this.postBody(active, wabaId, [change], { events: [kind], statuses: [] }, at);
      return active !== undefined;
    });
    this.identities = new IdentityEvents(deps, (wabaId, change, kind) =>
      this.postBody(this.requireTarget(), wabaId, [change], { events: [kind], statuses: [] }),
    );
  }

  /**
   * Merges a settings patch (validated whole first). Turning webhooks off also drops whatever is
   * scheduled, batched, queued or waiting for a retry, so nothing more is posted.
   */
  configure(patch: unknown): void {
    this.settings.apply(patch);
    if (this.settings.activeTarget() === undefined) this.dropPending();
  }

  /**
   * Called for every message the sandbox accepted. A send of a paced template is held first: its
   * statuses start when the hold ends, or it fails then if the template was paused or disabled
   * meanwhile (Meta drops held messages of a template paused for bad feedback).
   */
  messageAccepted(send: AcceptedSend): void {
    if (this.settings.activeTarget() === undefined) return;
    if (send.pacing === undefined) {
      this.scheduleStatuses(send, 0);
      return;
    }
    const { holdMs, templateId } = send.pacing;
    this.due.schedule(holdMs, () => {
      const node = this.deps.state.node(templateId);
      const status = node?.kind === 'template' ? node.stored.template.status : 'DISABLED';
      if (status !== 'PAUSED' && status !== 'DISABLED') {
        this.scheduleStatuses(send, holdMs);
        return;
      }
      const code = status === 'PAUSED' ? 132015 : 132016;
      const { title, details } = errorDescription(code);
      this.emitStatus(send, statusEntry(send, 'failed', send.acceptedAt + holdMs, statusError(code, title, details)));
    });
  }

  /** Schedules the statuses of a send, `startMs` after its acceptance (now, or when a hold ends). */
  private scheduleStatuses(send: AcceptedSend, startMs: number): void {
    const plan = this.plan(send);
    // Meta bills delivered messages: the tier counts the send once, at its delivery's time, whatever its duplicates.
    const delivered = plan.find((planned) => planned.status === 'delivered');
    const priced = this.serviceTier.priced(send, delivered === undefined ? undefined : send.acceptedAt + startMs + delivered.eventOffsetMs);
    for (const planned of plan) {
      const entry = statusEntry(priced, planned.status, send.acceptedAt + startMs + planned.eventOffsetMs, planned.error);
      this.due.schedule(planned.arrivalOffsetMs, () => this.emitStatus(send, entry));
    }
  }

  private plan(send: AcceptedSend): PlannedStatus[] {
    const current = this.settings.current;
    const failure = this.settings.takeRecipientFailure(send.addressee.phone ?? send.recipient);
    const events: Array<Omit<PlannedStatus, 'arrivalOffsetMs'>> = [{ status: 'sent', eventOffsetMs: current.sentDelayMs }];
    if (failure !== undefined) {
      const { title, details } = errorDescription(failure.code);
      events.push({ status: 'failed', eventOffsetMs: current.deliveredDelayMs, error: statusError(failure.code, title, details) });
    } else if (this.settings.chance(current.deliveredRate)) {
      events.push({ status: 'delivered', eventOffsetMs: current.deliveredDelayMs });
      if (this.settings.chance(current.readRate)) events.push({ status: 'read', eventOffsetMs: current.readDelayMs });
    }
    const duplicate = this.settings.chance(current.duplicateRate);
    const reorder = this.settings.chance(current.reorderRate);
    const late = this.settings.chance(current.lateRate);

    // Arrival slots are the events' times; reordering hands them out last event first.
    const slots = events.map((event) => event.eventOffsetMs).sort((a, b) => a - b);
    if (reorder) slots.reverse();
    const planned = events.map((event, index) => ({
      ...event,
      arrivalOffsetMs: slots[index]! + (late && event.status !== 'sent' ? current.lateDelayMs : 0),
    }));
    if (!duplicate) return planned;
    return planned.flatMap((event) => [event, { ...event, arrivalOffsetMs: event.arrivalOffsetMs + DUPLICATE_GAP_MS }]);
  }

  /** Posts to the target current when the status is due (a changed url applies to what is pending). */
  private emitStatus(number: BusinessNumber, payload: StatusEntry): void {
    const target = this.settings.activeTarget();
    if (target === undefined) return;
    const { batch, batchMaxStatuses, batchWindowMs } = this.settings.current;
    if (!batch) {
      this.postStatuses(number, target, [payload]);
      return;
    }
    let open = this.batches.get(number.phoneNumberId);
    if (open === undefined) {
      const timer = setTimeout(() => this.flushBatch(number.phoneNumberId), batchWindowMs);
      open = { number, target, statuses: [], timer };
      this.batches.set(number.phoneNumberId, open);
    }
    open.statuses.push(payload);
    if (open.statuses.length >= batchMaxStatuses) this.flushBatch(number.phoneNumberId);
  }

  private flushBatch(phoneNumberId: string): void {
    const open = this.batches.get(phoneNumberId);
    if (open === undefined) return;
    clearTimeout(open.timer);
    this.batches.delete(phoneNumberId);
    this.postStatuses(open.number, open.target, open.statuses);
    this.checkIdle();
  }

  private postStatuses(number: BusinessNumber, target: WebhookTarget, statuses: StatusEntry[]): void {
    const kinds = statuses.map((entry) => entry.status.status);
    this.postBody(target, number.wabaId, [statusesChange(number, statuses)], { events: kinds, statuses: kinds });
  }

  private postBody(target: WebhookTarget, wabaId: string, changes: WebhookChange[], meta: Omit<OutgoingBody, 'body'>, time?: number): void {
    this.poster.post(target, { body: JSON.stringify(webhookBody(wabaId, changes, time)), ...meta });
  }

  /**
   * `POST /_sandbox/webhooks/inbound`: a user writes to a business number, named by `from` (their
   * number) or `fromUserId` (a BSUID of the receiving portfolio). The number goes in the webhook
   * only where Meta's 30-day rule shows it (user-directory.ts).
   */
  injectInbound(input: unknown): { messageId: string } {
    if (!isRecord(input)) throw new SandboxRequestError(400, 'inbound message must be a JSON object');
    const phoneNumberId = requiredString(input, 'phoneNumberId');
    const from = input.from === undefined ? undefined : requiredString(input, 'from').replace(/^\+/, '');
    if (from !== undefined && !/^\d{7,15}$/.test(from)) throw new SandboxRequestError(400, 'from must be a phone number of 7 to 15 digits');
    const fromUserId = input.fromUserId === undefined ? undefined : requiredString(input, 'fromUserId');
    if (from === undefined && fromUserId === undefined) throw new SandboxRequestError(400, 'from or fromUserId is required');
    const reply = inboundReplyPartsOf(input);
    const text = reply.button || reply.buttonReply ? undefined : requiredString(input, 'text');
    const profileName = input.profileName === undefined ? undefined : requiredString(input, 'profileName');
    const node = this.deps.state.node(phoneNumberId);
    if (node?.kind !== 'phone') throw new SandboxRequestError(404, `no phone number with id ${phoneNumberId}`);
    const target = this.requireTarget();
    const { users, state } = this.deps;
    const found = users.sender(node.owner.account.businessId, from === undefined ? { userId: fromUserId! } : { phone: from });
    const sender = { ...found, profileName: profileName ?? found.profileName ?? 'Sandbox User' };
    const at = state.now();
    const visible = users.phoneVisible(phoneNumberId, sender, at) ? sender.phone : undefined;
    // Only a number the business could see counts as an exchange with that number.
    if (visible !== undefined) users.noteContact(phoneNumberId, visible, at);
    const messageId = this.deps.messageIds.next(sender.phone ?? sender.userId);
    const number: BusinessNumber = { wabaId: node.owner.account.wabaId, phoneNumberId, displayPhoneNumber: node.phone.number.displayPhoneNumber };
    const change = inboundMessageChange(number, {
      messageId,
      sender,
      ...(visible === undefined ? {} : { from: visible }),
      ...(text === undefined ? {} : { text }),
      at,
      reply,
    });
    // A number in standby (thread-standby.ts): Meta posts the same value on the `standby` field.
    this.postBody(target, number.wabaId, [node.phone.standby === true ? { ...change, field: 'standby' } : change], { events: ['inbound'], statuses: [] });
    return { messageId };
  }

  /** `POST /_sandbox/webhooks/template-status` (template-events.ts). */
  changeTemplateStatus(input: unknown): { id: string; name: string; language: string; status: TemplateStatus; notified: boolean } {
    return this.templates.changeStatus(input);
  }

  private requireTarget(): WebhookTarget {
    const target = this.settings.activeTarget();
    if (target === undefined) throw new SandboxRequestError(409, 'webhooks are not active: set url and appSecret (and enabled) with POST /_sandbox/webhooks');
    return target;
  }

  get idle(): boolean {
    return this.due.size === 0 && this.batches.size === 0 && this.poster.idle;
  }

  /**
   * Resolves true once nothing is scheduled, batched, queued or in flight (at once when idle), or
   * false after `timeoutMs`. Tests and benches wait on this instead of sleeping.
   */
  drain(timeoutMs = DEFAULT_DRAIN_TIMEOUT_MS): Promise<boolean> {
    if (this.idle) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.drainWaiters = this.drainWaiters.filter((waiter) => waiter !== done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.drainWaiters.push(done);
    });
  }

  private checkIdle(): void {
    if (!this.idle || this.drainWaiters.length === 0) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const waiter of waiters) waiter();
  }

  stats(): WebhookStats {
    let batched = 0;
    for (const open of this.batches.values()) batched += open.statuses.length;
    return this.poster.stats(this.due.size + batched);
  }

  deliveries(limit?: number): WebhookDelivery[] {
    return this.poster.listDeliveries(limit);
  }

  clearDeliveries(): void {
    this.poster.clearDeliveries();
  }

  private dropPending(): void {
    this.due.clear();
    for (const open of this.batches.values()) clearTimeout(open.timer);
    this.batches.clear();
    this.poster.dropPending();
    this.checkIdle();
  }

  /** Everything scheduled is dropped and the log cleared; settings back to defaults, the target kept. */
  reset(): void {
    this.dropPending();
    this.poster.clearDeliveries();
    this.settings.resetToDefaults();
    this.serviceTier.clear();
    this.checkIdle();
  }

  close(): void {
    this.reset();
    this.poster.close();
    this.checkIdle();
  }
}
