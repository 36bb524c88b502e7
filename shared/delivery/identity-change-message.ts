/**
 * Meta's identity-change system messages (../shared/meta/usernames-and-bsuid.md §4, fact sheet row
 * 5): `messages[].type: "system"` with `system.type` `user_changed_number` (the user changed phone
 * number) or `user_changed_user_id` (the same, when no number can be shared). Both carry the new ids
 * (`system.user_id`, `system.parent_user_id`, `system.wa_id` when the number may be shown) and,
 * since 2026-08-11, the previous ones (`system.previous_user_id`, `system.previous_parent_user_id`).
 * The message's own `from` / `from_user_id` name the conversation's (old) identity: they stand in
 * for previous ids Meta left out (webhooks before 2026-08-11).
 */
import * as v from 'valibot';
import type { InboundMessage } from './ports';

/** `messages[].system`, read leniently (a field of another shape is ignored, not the message). */
export const systemSchema = v.looseObject({
  type: v.optional(v.string()),
  body: v.optional(v.string()),
  user_id: v.optional(v.string()),
  parent_user_id: v.optional(v.string()),
  wa_id: v.optional(v.string()),
  previous_user_id: v.optional(v.string()),
  previous_parent_user_id: v.optional(v.string()),
});

const identityChangeTypes: ReadonlySet<string> = new Set(['user_changed_number', 'user_changed_user_id']);

const present = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

/**
 * The identity change a system message announces, or undefined (another system message, or one
 * without the new BSUID: nothing to re-key to).
 *
 * @example
 * identityChangeOf({ type: 'user_changed_number', user_id: 'GB.new', wa_id: '447700900999', previous_user_id: 'GB.old' }, { from: '447700900123' });
 * // { userId: 'GB.new', phoneNumber: '447700900999', previousUserId: 'GB.old', previousPhoneNumber: '447700900123' }
 */
export function identityChangeOf(
  system: v.InferOutput<typeof systemSchema> | undefined,
  sender: { from?: string; fromUserId?: string },
): InboundMessage['userIdChange'] {
  const userId = present(system?.user_id);
  if (!system || !identityChangeTypes.has(system.type ?? '') || userId === undefined) return undefined;
  const phoneNumber = present(system.wa_id);
  const parentUserId = present(system.parent_user_id);
  const previousUserId = present(system.previous_user_id) ?? (sender.fromUserId !== userId ? sender.fromUserId : undefined);
  const previousParentUserId = present(system.previous_parent_user_id);
  const previousPhoneNumber = sender.from !== undefined && sender.from !== phoneNumber ? sender.from : undefined;
  return {
    userId,
    ...(phoneNumber === undefined ? {} : { phoneNumber }),
    ...(parentUserId === undefined ? {} : { parentUserId }),
    ...(previousUserId === undefined ? {} : { previousUserId }),
    ...(previousParentUserId === undefined ? {} : { previousParentUserId }),
    ...(previousPhoneNumber === undefined ? {} : { previousPhoneNumber }),
  };
}
