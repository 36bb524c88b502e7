/**
 * Meta's BSUID ↔ phone pairs one `messages` change shows (docs/ORGANIZATIONS-AND-V1.md "One
 * identity per user"): an inbound message carrying both `from` and `from_user_id`, and a `sent`
 * status carrying both `recipient_id` and `recipient_user_id`, and a `user_changed_number` or
 * `user_changed_user_id` system message (the new BSUID with the new number it names,
 * identity-change-message.ts). Only `sent` statuses are read (one
 * per message; delivered and read repeat the same pair) to bound what the contact book is asked.
 */
import { isBusinessScopedUserId } from '../recipients/business-scoped-user-id';
import type { UserIdentityPair } from './ports';
import type { MessagesChange } from './webhook-payload.schema';

/**
 * The pairs of a change, in its order (duplicates kept: the contact book's writer keeps the newest).
 *
 * @example
 * identityPairsOf(change); // [{ phoneNumber: '447700900123', userId: 'GB.1', at: new Date('2026-05-04T08:00:00Z') }]
 */
export function identityPairsOf(change: Pick<MessagesChange, 'messages' | 'statuses'>): UserIdentityPair[] {
  const pairs: UserIdentityPair[] = [];
  for (const message of change.messages) {
    const { userIdChange } = message;
    if (userIdChange) {
      // The user changed number: the new BSUID pairs with the new number (system.wa_id), never with `from`
      // (the number the conversation had); without wa_id there is no pair to learn.
      if (userIdChange.phoneNumber !== undefined) pairs.push({ phoneNumber: userIdChange.phoneNumber, userId: userIdChange.userId, at: message.timestamp });
    } else if (message.from !== undefined && message.fromUserId !== undefined) {
      pairs.push({ phoneNumber: message.from, userId: message.fromUserId, at: message.timestamp });
    }
  }
  for (const status of change.statuses) {
    const userId = status.recipientUserId;
    // `recipientId` falls back to the BSUID when Meta withheld the number: then there is no pair.
    if (status.stage !== 'sent' || userId === undefined || status.recipientId === userId || isBusinessScopedUserId(status.recipientId)) continue;
    pairs.push({ phoneNumber: status.recipientId, userId, at: status.timestamp });
  }
  return pairs;
}
