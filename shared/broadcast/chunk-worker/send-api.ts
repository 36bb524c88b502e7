/**
 * The API one invocation of the chunk worker sends a message's recipients through: the route its
 * job was given at accept (`template.api` of the chunk message, marketing-messages-route.ts), until
 * the Marketing Messages API refuses the template or the account (131055, 134100, 134101, 134102:
 * `fallsBackToCloudApi`). Such a refusal means nothing was sent, so the worker sends that recipient
 * again through `/messages` at once (no duplicate is possible) and sends the rest of the invocation
 * through Cloud API too: the refusal is about the template, and would cost every recipient a second
 * call. The next invocation (the next chunk message) tries the Marketing Messages API again, so a
 * template that was still syncing (134101) moves over once Meta has it. A template with a max price
 * never falls back: Meta sends it through the Marketing Messages API only (131061 on `/messages`).
 */
import { fallsBackToCloudApi } from '../../sending/failure-reasons';
import type { CloudApiClient, SendOutcome, UpstreamCall } from '../../sending/ports';
import type { OutboundMessage } from '../chunk-message';
import { marketingMessagesBody, type SentVia } from '../marketing-messages-route';

/** One send's outcome and the API that gave it. */
export interface RoutedOutcome {
  outcome: SendOutcome;
  via: SentVia;
}

export class SendApiChoice {
  /** The code the Marketing Messages API refused the template with, in this invocation. */
  private refusedWith?: number;
  /** Recipients sent again through Cloud API after such a refusal (the chunk report's `marketingFallbacks`). */
  fallbacks = 0;

  constructor(
    private readonly wanted: SentVia,
    /** A template with a max price: Meta refuses it on `/messages` (131061), so a refusal is recorded, never sent again there. */
    private readonly mayFallBack = true,
  ) {}

  /** The job's route, from its chunk message: free-form and older messages carry none (Cloud API). */
  static of(message: OutboundMessage): SendApiChoice {
    if (message.kind !== 'template-chunk' || message.template.api !== 'marketing_messages') return new SendApiChoice('cloud_api');
    return new SendApiChoice('marketing_messages', message.template.maxPrice === undefined);
  }

  /** Where the next send goes. */
  get current(): SentVia {
    return this.refusedWith === undefined ? this.wanted : 'cloud_api';
  }

  /** Sends after a refusal of the template go through Cloud API for the rest of the invocation. */
  refused(code: number): void {
    this.refusedWith ??= code;
    this.fallbacks += 1;
  }

  /**
   * Sends `body` (a `/messages` body) through the current API; a Marketing Messages API refusal of
   * the template is answered by the same body through `/messages`.
   *
   * @example
   * const { outcome, via } = await choice.send(upstream, 'pn_1', body, { accessToken });
   * // via: 'marketing_messages', or 'cloud_api' after a 134101
   */
  async send(upstream: Pick<CloudApiClient, 'sendMessage'>, phoneNumberId: string, body: Record<string, unknown>, call: UpstreamCall): Promise<RoutedOutcome> {
    if (this.current === 'cloud_api') return { outcome: await upstream.sendMessage(phoneNumberId, body, call), via: 'cloud_api' };
    const outcome = await upstream.sendMessage(phoneNumberId, marketingMessagesBody(body), call, { api: 'marketing_messages' });
    if (outcome.kind !== 'rejected' || !this.mayFallBack || !fallsBackToCloudApi(outcome.error.code)) return { outcome, via: 'marketing_messages' };
    this.refused(outcome.error.code);
    return { outcome: await upstream.sendMessage(phoneNumberId, body, call), via: 'cloud_api' };
  }
}
