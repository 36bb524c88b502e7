/**
 * Meta's free tier of service messages, as the sandbox emulates it (../shared/meta/platform-changes-2026-h2.md
 * rows 1–3): the first 1,000 service (free-form) messages **delivered** per business phone number and
 * calendar month (UTC, the month of the `delivered` event's time) are `free_customer_service`, every
 * later one that month `regular` and billable; no roll-over. An account marked exempt (eligible
 * governments and non-profits) keeps every message it would be billed for free, with
 * `subtype: "paid_exempt"`. Counted when a send's `delivered` status is planned (webhook-emitter.ts),
 * once per message whatever its duplicates. Control: `POST /_sandbox/service-tier` (a month's count,
 * so a test reaches the tier's end without 1,000 sends), `POST /_sandbox/accounts/{wabaId}/pricing-exempt`.
 */
import { SandboxRequestError } from './sandbox-request-error';
import type { AcceptedSend } from './webhook-payloads';

export const FREE_SERVICE_MESSAGES_PER_MONTH = 1_000;

const monthOf = (at: number): string => new Date(at).toISOString().slice(0, 7);

export class SandboxServiceTier {
  private readonly delivered = new Map<string, number>();
  private readonly exempt = new Set<string>();

  /**
   * The send's pricing once its delivery (at `deliveredAt`, absent when it is not delivered) is
   * counted: a service message's type by the tier, and the exempt subtype on what would be billed.
   */
  priced(send: AcceptedSend, deliveredAt: number | undefined): AcceptedSend {
    let priced = send;
    // Reactions are never charged and do not count (Meta, 2026-10-01).
    if (send.pricingCategory === 'SERVICE' && deliveredAt !== undefined && send.reaction !== true) {
      const key = `${send.phoneNumberId}\n${monthOf(deliveredAt)}`;
      const ordinal = (this.delivered.get(key) ?? 0) + 1;
      this.delivered.set(key, ordinal);
      priced = { ...send, pricingType: ordinal <= FREE_SERVICE_MESSAGES_PER_MONTH ? 'FREE_CUSTOMER_SERVICE' : 'REGULAR' };
    }
    return this.exempt.has(send.wabaId) && priced.pricingType === 'REGULAR' ? { ...priced, pricingSubtype: 'paid_exempt' } : priced;
  }

  /** `{ phoneNumberId, month: "YYYY-MM", delivered }`: sets a number's count of a month (a test's shortcut to the tier's end). */
  setCount(input: unknown): { phoneNumberId: string; month: string; delivered: number } {
    const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    const { phoneNumberId, month, delivered } = body;
    if (typeof phoneNumberId !== 'string' || phoneNumberId === '') throw new SandboxRequestError(400, 'phoneNumberId must be a non-empty string');
    if (typeof month !== 'string' || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new SandboxRequestError(400, 'month must be YYYY-MM');
    if (typeof delivered !== 'number' || !Number.isInteger(delivered) || delivered < 0) throw new SandboxRequestError(400, 'delivered must be an integer >= 0');
    this.delivered.set(`${phoneNumberId}\n${month}`, delivered);
    return { phoneNumberId, month, delivered };
  }

  /** Every counted number and month: `[{ phoneNumberId, month, delivered }]`. */
  counts(): Array<{ phoneNumberId: string; month: string; delivered: number }> {
    return [...this.delivered].map(([key, delivered]) => {
      const [phoneNumberId = '', month = ''] = key.split('\n');
      return { phoneNumberId, month, delivered };
    });
  }

  /** Body `{ "exempt": true }` (the default) or `{ "exempt": false }`. */
  setExempt(wabaId: string, input: unknown): { wabaId: string; exempt: boolean } {
    const exempt = typeof input === 'object' && input !== null ? ((input as { exempt?: unknown }).exempt ?? true) : true;
    if (typeof exempt !== 'boolean') throw new SandboxRequestError(400, 'exempt must be a boolean');
    if (exempt) this.exempt.add(wabaId);
    else this.exempt.delete(wabaId);
    return { wabaId, exempt };
  }

  isExempt(wabaId: string): boolean {
    return this.exempt.has(wabaId);
  }

  clear(): void {
    this.delivered.clear();
    this.exempt.clear();
  }
}
