/**
 * The organization's contact book: Meta's pairs of a user's business-scoped user id (BSUID) and
 * phone number, learned from webhooks that carry both (docs/ORGANIZATIONS-AND-V1.md "One identity
 * per user"). One record per direction (BSUID → phone, phone → BSUID), so either key finds its
 * counterpart with one read. Meta regenerates a BSUID when the user changes number, so a phone may
 * move to a new BSUID: the newest pair by Meta's time wins, per direction.
 *
 * A number is keyed by its opt-out key (shared/recipients/opt-out-key.ts), the key its opt-out is
 * kept under: an opt-out added or removed in either form of a Mexican or Brazilian mobile finds the
 * pair Meta showed in the other (docs/ORGANIZATIONS-AND-V1.md "One identity per user").
 */
import { optOutKeyOf } from '../recipients/opt-out-key';

/** One pair as Meta showed it: `at` is Meta's time of the webhook event that carried both (ISO). */
export interface IdentityPair {
  /** Digits, as Meta's `wa_id` / `from` / `recipient_id` gave them. */
  phoneNumber: string;
  /** The BSUID (`user_id`, `from_user_id`, `recipient_user_id`). */
  userId: string;
  at: string;
}

/**
 * A stored direction. `olderForm`: read under an older form of the number (stored before directions
 * were keyed by the opt-out key); the writer records it again, which moves it under the key.
 * (Items written by an earlier version may carry `aligned`: ignored, see identity-pairs.ts.)
 */
export type StoredPair = IdentityPair & { olderForm?: true };

/**
 * Whether the direction stored under a key names the same counterpart (times aside; a number in
 * either of its forms is the same number).
 *
 * @example
 * samePair({ phoneNumber: '5215511112222', userId: 'MX.1', at: 'T1' }, { phoneNumber: '525511112222', userId: 'MX.1', at: 'T2' }); // true
 */
export const samePair = (a: IdentityPair | undefined, b: IdentityPair): boolean =>
  a !== undefined && a.userId === b.userId && optOutKeyOf(a.phoneNumber) === optOutKeyOf(b.phoneNumber);

/**
 * The contact book store (the inbox table). Throws InboxStoreUnavailableError like every inbox port.
 */
export interface ContactBook {
  /** The pair stored under a recipient key (a BSUID, or a phone's digits in any of its forms), strongly consistent. */
  pairOf(organizationId: string, key: string): Promise<StoredPair | undefined>;
  /** The pairs stored under the keys (eventually consistent, batched; numbers in any form), by the keys as given: only the keys that have one. */
  pairsOf(organizationId: string, keys: readonly string[]): Promise<Map<string, StoredPair>>;
  /**
   * Writes the pair's two directions, phone first, each one conditional single-item put that applies
   * only when the key has no pair, an older one (by `at`), or this same pair (a retry). `recorded`
   * when both directions now hold it; `stale` when a newer pair holds either key (nothing more to do).
   * The number's direction goes under its opt-out key; once written, a direction under an older form
   * of the number holding this pair or an older one is deleted (the pair moved under the key).
   */
  recordPair(organizationId: string, pair: IdentityPair): Promise<'recorded' | 'stale'>;
}

/**
 * The key on the other side of a pair: the phone of a BSUID's pair, the BSUID of a phone's pair.
 *
 * @example
 * counterpartOf({ phoneNumber: '447700900123', userId: 'GB.1', at: 'T' }, 'GB.1'); // '447700900123'
 */
export function counterpartOf(pair: IdentityPair, key: string): string {
  // A phone key in its other form is still not the BSUID: the BSUID is the counterpart.
  return key === pair.userId ? pair.phoneNumber : pair.userId;
}
