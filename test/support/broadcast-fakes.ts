/**
 * In-memory stand-ins for the broadcast ports, with the same observable semantics as the
 * DynamoDB/SQS/Graph adapters (conditional ledger claims, pacer schedule, idempotency records),
 * plus a virtual clock whose sleep is instant. Shared by unit and integration tests.
 */
import type { BroadcastJob } from '../../shared/broadcast/broadcast-job';
import type { TemplateChunkMessage } from '../../shared/broadcast/chunk-message';
import { BusinessAccountIncompleteError, SenderNotOwnedError } from '../../shared/broadcast/errors';
import type { Clock, Sender, SenderAccount, SenderDirectory, UploadedMedia } from '../../shared/broadcast/ports';
import type { TemplateBroadcastRequest } from '../../shared/broadcast/template-broadcast.schema';
import type { CloudApiClient, SendEndpoint, SendOutcome, UpstreamCall, UpstreamPhoneNumber, UpstreamTemplate } from '../../shared/sending/ports';
import { isRetryableRejection } from '../../shared/sending/graph-answer';
import { copy } from './broadcast-stores/in-memory-broadcast-state';

// The broadcast stores (broadcast-stores/) and the other ports' fakes (broadcast-port-fakes.ts), from here as before.
export { InMemoryBroadcastRepository } from './broadcast-stores/in-memory-broadcast-repository';
export {
  FixedMarketingMessagesOnboarding,
  FixedMessagingTiers,
  InMemoryIdempotencyGuard,
  InMemoryPortfolioReach,
  InMemorySendPacer,
  InMemoryTemplateStates,
  RecordedServiceWindow,
  RecordingOutboundQueue,
  unlimitedMessaging,
} from './broadcast-port-fakes';

/* ------------------------------------------------------------------ time */

/**
 * A clock that only moves when every piece of work is waiting on `sleep`: `run` drains the
 * microtask queue, then jumps to the earliest pending sleep and wakes it. No real waiting.
 */
export class VirtualTime implements Clock {
  private current: number;
  private sequence = 0;
  private timers: Array<{ at: number; sequence: number; resolve: () => void }> = [];
  /** Every sleep asked for, in ms. */
  readonly sleeps: number[] = [];

  constructor(start: Date | string = '2026-03-01T09:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  nowMs(): number {
    return this.current;
  }

  advanceBy(milliseconds: number): void {
    this.current += milliseconds;
  }

  readonly sleep = (milliseconds: number): Promise<void> => {
    this.sleeps.push(milliseconds);
    if (milliseconds <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.timers.push({ at: this.current + milliseconds, sequence: (this.sequence += 1), resolve });
    });
  };

  /** Drives `work` to completion, advancing virtual time whenever it is idle. */
  async run<T>(work: Promise<T> | (() => Promise<T>)): Promise<T> {
    const promise = typeof work === 'function' ? work() : work;
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    let idleTurns = 0;
    while (!settled) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (settled) break;
      if (this.timers.length === 0) {
        idleTurns += 1;
        if (idleTurns > 1000) throw new Error('VirtualTime: work is stuck with no pending sleep');
        continue;
      }
      idleTurns = 0;
      this.timers.sort((a, b) => a.at - b.at || a.sequence - b.sequence);
      const next = this.timers.shift()!;
      this.current = Math.max(this.current, next.at);
      next.resolve();
    }
    return promise;
  }
}

/* ------------------------------------------------------------- senders */

export const ORG = 'org_1';
export const OTHER_ORG = 'org_2';
export const SENDER: SenderAccount = {
  organizationId: ORG,
  phoneNumber: '919800000001',
  phoneNumberId: 'pn_1',
  wabaId: 'waba_1',
  accessToken: 'token-1',
  messagesPerSecond: 20,
  businessId: 'biz_1',
};
export const SECOND_SENDER: SenderAccount = { ...SENDER, phoneNumber: '919800000002', phoneNumberId: 'pn_2' };

export class InMemorySenderDirectory implements SenderDirectory {
  readonly accounts: SenderAccount[];
  resolveCalls = 0;

  constructor(accounts: SenderAccount[] = [SENDER, SECOND_SENDER]) {
    this.accounts = accounts.map((account) => ({ ...account }));
  }

  async listSenders(organizationId: string): Promise<Sender[]> {
    return this.accounts
      .filter((account) => account.organizationId === organizationId)
      .map(({ phoneNumber, phoneNumberId, wabaId }) => ({ phoneNumber, phoneNumberId, wabaId }));
  }

  async resolveSender(organizationId: string, phoneNumber: string): Promise<SenderAccount> {
    this.resolveCalls += 1;
    const account = this.accounts.find((candidate) => candidate.phoneNumber === phoneNumber);
    if (!account || account.organizationId !== organizationId) throw new SenderNotOwnedError(phoneNumber);
    return { ...account };
  }

  async accountOf(organizationId: string, wabaId: string): Promise<{ accessToken: string; messagesPerSecond: number }> {
    const account = this.accounts.find((candidate) => candidate.organizationId === organizationId && candidate.wabaId === wabaId);
    if (!account) throw new BusinessAccountIncompleteError(['businessAccount']);
    return { accessToken: account.accessToken, messagesPerSecond: account.messagesPerSecond };
  }
}

/* ------------------------------------------------------------ upstream */

export const accepted = (messageId: string): SendOutcome => ({ kind: 'accepted', messageId });
export const rejected = (code: number, httpStatus = 400, message = `error ${code}`): SendOutcome => ({
  kind: 'rejected',
  httpStatus,
  error: { message, type: 'OAuthException', code },
  retryable: isRetryableRejection(httpStatus, code),
});
export const unknownOutcome = (reason = 'timeout'): SendOutcome => ({ kind: 'unknown', reason });

export const template = (overrides: Partial<UpstreamTemplate> & { body?: string } = {}): UpstreamTemplate => {
  const { body = 'Hello {{1}}, your order {{2}} is ready', ...rest } = overrides;
  return {
    id: 'tpl_1',
    name: 'order_update',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order' },
      { type: 'BODY', text: body },
    ],
    ...rest,
  };
};

export interface RecordedSend {
  phoneNumberId: string;
  to: string;
  body: Record<string, unknown>;
  accessToken: string;
  /** Clock time (ms) at which the send was made. */
  at: number;
  /** Present only for sends through `/marketing_messages`. */
  api?: 'marketing_messages';
}

/**
 * A Cloud API whose send outcomes are scripted per recipient number (consumed in order; then
 * `defaultOutcome`, else accepted with a fresh message id).
 */
export class ScriptedCloudApi implements CloudApiClient {
  readonly templates = new Map<string, UpstreamTemplate[]>();
  readonly outcomes = new Map<string, SendOutcome[]>();
  readonly sends: RecordedSend[] = [];
  listTemplateCalls = 0;
  listTemplatesFailure?: Error;
  defaultOutcome?: (to: string) => SendOutcome;
  /** Called on every send before its outcome is chosen (e.g. to advance the clock). */
  onSend?: (send: RecordedSend) => void | Promise<void>;
  private messageCounter = 0;

  constructor(private readonly clock: Clock = { now: () => new Date() }) {}

  script(to: string, ...outcomes: SendOutcome[]): this {
    this.outcomes.set(to, [...(this.outcomes.get(to) ?? []), ...outcomes]);
    return this;
  }

  async listTemplates(wabaId: string, _call: UpstreamCall): Promise<UpstreamTemplate[]> {
    this.listTemplateCalls += 1;
    if (this.listTemplatesFailure) throw this.listTemplatesFailure;
    return copy(this.templates.get(wabaId) ?? []);
  }

  async listPhoneNumbers(_wabaId: string, _call: UpstreamCall): Promise<UpstreamPhoneNumber[]> {
    return [];
  }

  /** `whatsapp_business_manager_messaging_limit` per phone number id (absent: TIER_UNLIMITED). */
  readonly messagingLimits = new Map<string, string>();
  messagingLimitCalls = 0;

  async messagingLimitOf(phoneNumberId: string, _call: UpstreamCall): Promise<string | undefined> {
    this.messagingLimitCalls += 1;
    return this.messagingLimits.get(phoneNumberId) ?? 'TIER_UNLIMITED';
  }

  /** `marketing_messages_onboarding_status` per WABA id (absent: the field is absent); `onboardingFailure` makes every read fail. */
  readonly onboardingStatuses = new Map<string, string>();
  onboardingFailure?: Error;
  onboardingCalls = 0;

  async marketingMessagesOnboardingOf(wabaId: string, _call: UpstreamCall): Promise<string | undefined> {
    this.onboardingCalls += 1;
    if (this.onboardingFailure) throw this.onboardingFailure;
    return this.onboardingStatuses.get(wabaId);
  }

  /** Outcomes scripted for `/marketing_messages` sends only, per number (consumed before the shared script). */
  readonly marketingOutcomes = new Map<string, SendOutcome[]>();

  scriptMarketing(to: string, ...outcomes: SendOutcome[]): this {
    this.marketingOutcomes.set(to, [...(this.marketingOutcomes.get(to) ?? []), ...outcomes]);
    return this;
  }

  async sendMessage(phoneNumberId: string, body: Record<string, unknown>, call: UpstreamCall, endpoint: SendEndpoint = {}): Promise<SendOutcome> {
    const marketing = endpoint.api === 'marketing_messages';
    // `to`: the addressee, a number (`to`) or a business-scoped user id (Meta's `recipient`).
    const send: RecordedSend = {
      phoneNumberId,
      to: String(body.to ?? body.recipient),
      body: copy(body),
      accessToken: call.accessToken,
      at: this.clock.now().getTime(),
      ...(marketing ? { api: 'marketing_messages' as const } : {}),
    };
    this.sends.push(send);
    await this.onSend?.(send);
    const scripted = (marketing ? this.marketingOutcomes.get(send.to)?.shift() : undefined) ?? this.outcomes.get(send.to)?.shift();
    if (scripted) return scripted;
    if (this.defaultOutcome) return this.defaultOutcome(send.to);
    return accepted(`wamid.${(this.messageCounter += 1)}`);
  }

  sendsTo(to: string): RecordedSend[] {
    return this.sends.filter((send) => send.to === to);
  }
}

/* ------------------------------------------------------------ requests */

/** Recipient i gets number 98<8 digits of i> under country code 91. */
export const recipientNumber = (index: number): string => `98${String(index).padStart(8, '0')}`;

export function broadcastRequest(
  count: number,
  overrides: Partial<TemplateBroadcastRequest> = {},
  parametersOf: (index: number) => string[] | undefined = (index) => [`Name${index}`, `Order${index}`],
): TemplateBroadcastRequest {
  return {
    broadcastName: 'spring sale',
    fromPhoneNumber: SENDER.phoneNumber,
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    data: Array.from({ length: count }, (_, index) => {
      const parameters = parametersOf(index);
      return { countryCode: '91', toPhoneNumber: recipientNumber(index), ...(parameters ? { templateParams: parameters } : {}) };
    }),
    ...overrides,
  };
}

/** The job a template chunk message belongs to, as the accept path records it. */
export function jobOf(
  message: TemplateChunkMessage,
  chunkSizes: readonly number[] = [message.recipients.length],
  createdAt = '2026-03-01T09:00:00.000Z',
): BroadcastJob {
  return {
    kind: 'template',
    jobId: message.jobId,
    organizationId: message.organizationId,
    broadcastName: 'test',
    exposed: true,
    wabaId: message.wabaId,
    phoneNumberId: message.phoneNumberId,
    fromPhoneNumber: SENDER.phoneNumber,
    template: { name: message.template.name, language: message.template.language, category: 'UTILITY', id: 'tpl_1' },
    totalRecipients: chunkSizes.reduce((sum, size) => sum + size, 0),
    totalChunks: chunkSizes.length,
    chunkSize: 1000,
    createdAt,
  };
}

export function chunkMessage(recipientCount: number, overrides: Partial<TemplateChunkMessage> = {}): TemplateChunkMessage {
  return {
    kind: 'template-chunk',
    version: 1,
    jobId: 'pub_job1',
    organizationId: ORG,
    chunkIndex: 0,
    wabaId: SENDER.wabaId,
    phoneNumberId: SENDER.phoneNumberId,
    template: { name: 'order_update', language: 'en_US' },
    recipients: Array.from({ length: recipientCount }, (_, index) => ({ index, to: `91${recipientNumber(index)}`, parameters: [`Name${index}`] })),
    ...overrides,
  };
}

/** Media uploaded through /upstream, by organization (the broadcast's UploadedMedia port). */
export class InMemoryUploadedMedia implements UploadedMedia {
  private readonly owned = new Map<string, Set<string>>();

  upload(organizationId: string, mediaId: string): void {
    const ids = this.owned.get(organizationId) ?? new Set<string>();
    ids.add(mediaId);
    this.owned.set(organizationId, ids);
  }

  async ownedMedia(organizationId: string, mediaIds: readonly string[]): Promise<ReadonlySet<string>> {
    const ids = this.owned.get(organizationId);
    return new Set(mediaIds.filter((id) => ids?.has(id)));
  }
}
