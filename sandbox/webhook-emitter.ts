/**
 * The sandbox's side of Meta's webhooks: for every accepted send it schedules the statuses Meta
 * would report (`sent`, then `delivered`, then `read`, or `sent` then `failed` for a recipient
 * with an async failure), and posts them signed to the configured URL; inbound messages and
 * template status changes are posted on request.
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
import type { TemplateStatus } from './sandbox-types';
import {
  inboundMessageChange,
  statusError,
  statusesChange,
  statusPayload,
  templateStatusChange,
  webhookBody,
  type AcceptedSend,
  type BusinessNumber,
  type DeliveryStatus,
  type StatusError,
  type StatusPayload,
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
  private readonly batches = new Map<string, { number: BusinessNumber; target: WebhookTarget; statuses: StatusPayload[]; timer: NodeJS.Timeout }>();
  private readonly poster: WebhookPoster;
  private drainWaiters: Array<() => void> = [];

  constructor(
    private readonly deps: { state: SandboxState; messageIds: MessageIdGenerator },
    target?: WebhookTarget,
    log: (line: string) => void = (line) => console.warn(line),
  ) {
    this.settings = new WebhookSettings(target);
    this.poster = new WebhookPoster(() => this.settings.current, () => this.checkIdle(), log);
  }

  /**
   * Merges a settings patch (validated whole first). Turning webhooks off also drops whatever is
   * scheduled, batched, queued or waiting for a retry, so nothing more is posted.
   */
  configure(patch: unknown): void {
    this.settings.apply(patch);
    if (this.settings.activeTarget() === undefined) this.dropPending();
  }

  /** Called for every message the sandbox accepted. */
  messageAccepted(send: AcceptedSend): void {
    if (this.settings.activeTarget() === undefined) return;
    for (const planned of this.plan(send)) {
      const payload = statusPayload(send, planned.status, send.acceptedAt + planned.eventOffsetMs, planned.error);
      this.due.schedule(planned.arrivalOffsetMs, () => this.emitStatus(send, payload));
    }
  }

  private plan(send: AcceptedSend): PlannedStatus[] {
    const current = this.settings.current;
    const failure = this.settings.takeRecipientFailure(send.recipient);
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
  private emitStatus(number: BusinessNumber, payload: StatusPayload): void {
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

  private postStatuses(number: BusinessNumber, target: WebhookTarget, statuses: StatusPayload[]): void {
    const kinds = statuses.map((status) => status.status);
    this.postBody(target, number.wabaId, [statusesChange(number, statuses)], { events: kinds, statuses: kinds });
  }

  private postBody(target: WebhookTarget, wabaId: string, changes: WebhookChange[], meta: Omit<OutgoingBody, 'body'>, time?: number): void {
    this.poster.post(target, { body: JSON.stringify(webhookBody(wabaId, changes, time)), ...meta });
  }

  /** `POST /_sandbox/webhooks/inbound`: a user writes to a business number. */
  injectInbound(input: unknown): { messageId: string } {
    if (!isRecord(input)) throw new SandboxRequestError(400, 'inbound message must be a JSON object');
    const phoneNumberId = requiredString(input, 'phoneNumberId');
    const from = requiredString(input, 'from').replace(/^\+/, '');
    if (!/^\d{7,15}$/.test(from)) throw new SandboxRequestError(400, 'from must be a phone number of 7 to 15 digits');
    const text = requiredString(input, 'text');
    const profileName = input.profileName === undefined ? 'Sandbox User' : requiredString(input, 'profileName');
    const node = this.deps.state.node(phoneNumberId);
    if (node?.kind !== 'phone') throw new SandboxRequestError(404, `no phone number with id ${phoneNumberId}`);
    const target = this.requireTarget();
    const messageId = this.deps.messageIds.next(from);
    const number: BusinessNumber = { wabaId: node.owner.account.wabaId, phoneNumberId, displayPhoneNumber: node.phone.number.displayPhoneNumber };
    const change = inboundMessageChange(number, { messageId, from, profileName, text, at: this.deps.state.now() });
    this.postBody(target, number.wabaId, [change], { events: ['inbound'], statuses: [] });
    return { messageId };
  }

  /**
   * `POST /_sandbox/webhooks/template-status`: sets the sandbox's own template status (so sends
   * see it) and, when webhooks are active, posts `message_template_status_update`.
   */
  changeTemplateStatus(input: unknown): { id: string; name: string; language: string; status: TemplateStatus; notified: boolean } {
    if (!isRecord(input)) throw new SandboxRequestError(400, 'template status change must be a JSON object');
    const name = requiredString(input, 'name');
    const language = requiredString(input, 'language');
    const wabaId = input.wabaId === undefined ? undefined : requiredString(input, 'wabaId');
    const reason = input.reason === undefined ? undefined : requiredString(input, 'reason');
    const { state } = this.deps;
    const owners = wabaId === undefined ? state.allAccounts() : [state.account(wabaId)].filter((owner) => owner !== undefined);
    if (wabaId !== undefined && owners.length === 0) throw new SandboxRequestError(404, `no account with wabaId ${wabaId}`);
    const found = owners.flatMap((owner) => {
      const stored = state.findTemplate(owner, name, language);
      return stored === undefined ? [] : [{ owner, stored }];
    });
    if (found.length === 0) throw new SandboxRequestError(404, `no template ${name} (${language})`);
    if (found.length > 1) throw new SandboxRequestError(409, `several accounts have template ${name} (${language}): give wabaId`);
    const { owner, stored } = found[0]!;
    const template = state.setTemplateStatus(stored.template.id, input.status);
    const target = this.settings.activeTarget();
    if (target !== undefined) {
      const at = state.now();
      const change = templateStatusChange({ templateId: template.id, name, language, event: template.status, ...(reason === undefined ? {} : { reason }), at });
      this.postBody(target, owner.account.wabaId, [change], { events: [`template:${template.status}`], statuses: [] }, at);
    }
    return { id: template.id, name, language, status: template.status, notified: target !== undefined };
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
    this.checkIdle();
  }

  close(): void {
    this.reset();
    this.poster.close();
    this.checkIdle();
  }
}
