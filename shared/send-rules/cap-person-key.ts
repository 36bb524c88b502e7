/**
 * One person across their phone number and business-scoped user id (docs/CAMPAIGNS.md "Frequency
 * caps"): the key their frequency cap counts under. A number is keyed by its opt-out key (a Mexican
 * or Brazilian mobile's two forms are one person, shared/recipients/opt-out-key.ts); a BSUID by its
 * paired number's key when the contact book knows the pair, else by itself. So a campaign to the
 * number and a broadcast to the BSUID count against one cap once Meta has shown the pair; before
 * that the BSUID counts on its own (the platform cannot know they are one person).
 */
import type { StoredPair } from '../inbox/contact-book';
import { isBusinessScopedUserId } from '../recipients/business-scoped-user-id';
import { optOutKeyOf } from '../recipients/opt-out-key';

/**
 * The cap key of a recipient key (`to`), given the contact book's pairs of the BSUIDs.
 *
 * @example
 * capPersonKeyOf('5215511112222', new Map()); // '525511112222'
 * capPersonKeyOf('MX.1', new Map([['MX.1', { phoneNumber: '525511112222', userId: 'MX.1', at: 'T' }]])); // '525511112222'
 * capPersonKeyOf('MX.2', new Map()); // 'MX.2'
 */
export function capPersonKeyOf(to: string, pairs: ReadonlyMap<string, StoredPair>): string {
  if (!isBusinessScopedUserId(to)) return optOutKeyOf(to);
  const pair = pairs.get(to);
  return pair ? optOutKeyOf(pair.phoneNumber) : to;
}

/** The BSUIDs among recipient keys: the keys to ask the contact book for. */
export const businessScopedIdsAmong = (keys: readonly string[]): string[] => [...new Set(keys.filter((key) => isBusinessScopedUserId(key)))];
