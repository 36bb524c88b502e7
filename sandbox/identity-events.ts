/**
 * A user's identity events the control API triggers (../shared/meta/usernames-and-bsuid.md §4,
 * ../shared/meta/platform-changes-2026-h2.md rows 5 and 6), posted signed while webhooks are active:
 *
 * - `POST /_sandbox/webhooks/identity-change` `{ phoneNumberId, phone, newPhone, type? }`: the user
 *   of `phone` moves to `newPhone` (registered with the same username and profile, so it gets its
 *   own BSUID), and the business number hears Meta's system message: `user_changed_number` (the
 *   default; `system.wa_id` is the new number when it may be shown) or `user_changed_user_id`
 *   (no number shared), with `system.user_id` and `system.previous_user_id` (and the parent ids).
 * - `POST /_sandbox/webhooks/user-preferences` `{ phoneNumberId, from | fromUserId, value }`: the
 *   user stops (`value: "stop"`) or resumes (`"resume"`) marketing messages inside WhatsApp: a
 *   `user_preferences` change (category `marketing_messages`).
 * - `POST /_sandbox/webhooks/link-click` `{ phoneNumberId, clickComponent?, clickId?, productId?, trackingToken? }`:
 *   a user opened a link of a marketing message (Marketing Messages API, limited availability): a
 *   `messages` change with `user_actions[]` `marketing_messages_link_click`, naming no message and no
 *   user, as Meta's does (docs/OUTCOMES.md "Meta's click events").
 */
import { fail, isRecord, type Json } from './control-values';
import type { MessageIdGenerator } from './message-ids';
import { SandboxRequestError } from './sandbox-request-error';
import type { SandboxState } from './sandbox-state';
import type { UserDirectory } from './user-directory';
import { identityChangeMessageChange, userPreferencesChange, type BusinessNumber, type WebhookChange } from './webhook-payloads';

/** Posts one change of a WABA (signed, to the current target); throws the control API's 409 when webhooks are off. */
export type IdentityChangePoster = (wabaId: string, change: WebhookChange, kind: string) => void;

const phonePattern = /^\d{7,15}$/;

function text(body: Json, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value.trim() === '') fail(`${key} must be a non-empty string`);
  return value;
}

function phone(body: Json, key: string): string {
  const digits = text(body, key).replace(/^\+/, '');
  if (!phonePattern.test(digits)) fail(`${key} must be a phone number of 7 to 15 digits`);
  return digits;
}

export class IdentityEvents {
  constructor(
    private readonly deps: { state: SandboxState; users: UserDirectory; messageIds: MessageIdGenerator },
    private readonly post: IdentityChangePoster,
  ) {}

  /** The business number of `phoneNumberId` and its portfolio. */
  private numberOf(body: Json): { number: BusinessNumber; businessId: string } {
    const phoneNumberId = text(body, 'phoneNumberId');
    const node = this.deps.state.node(phoneNumberId);
    if (node?.kind !== 'phone') throw new SandboxRequestError(404, `no phone number with id ${phoneNumberId}`);
    return {
      number: { wabaId: node.owner.account.wabaId, phoneNumberId, displayPhoneNumber: node.phone.number.displayPhoneNumber },
      businessId: node.owner.account.businessId,
    };
  }

  /** `POST /_sandbox/webhooks/identity-change`. */
  changeNumber(input: unknown): { previousUserId: string; userId: string; messageId: string } {
    if (!isRecord(input)) fail('identity change must be a JSON object');
    const { number, businessId } = this.numberOf(input);
    const oldPhone = phone(input, 'phone');
    const newPhone = phone(input, 'newPhone');
    if (newPhone === oldPhone) fail('newPhone must differ from phone');
    const type = input.type ?? 'user_changed_number';
    if (type !== 'user_changed_number' && type !== 'user_changed_user_id') fail('type must be user_changed_number or user_changed_user_id');
    const { users, state } = this.deps;
    const previous = users.sender(businessId, { phone: oldPhone });
    users.register({
      phone: newPhone,
      phoneWithheld: previous.phoneWithheld,
      ...(previous.username === undefined ? {} : { username: previous.username }),
      ...(previous.profileName === undefined ? {} : { profileName: previous.profileName }),
    });
    const current = users.sender(businessId, { phone: newPhone });
    const at = state.now();
    const from = users.phoneVisible(number.phoneNumberId, previous, at) ? oldPhone : undefined;
    const shown = type === 'user_changed_number' && users.phoneVisible(number.phoneNumberId, current, at) ? newPhone : undefined;
    const messageId = this.deps.messageIds.next(oldPhone);
    const change = identityChangeMessageChange(number, {
      messageId,
      type,
      previous,
      current,
      ...(from === undefined ? {} : { from }),
      ...(shown === undefined ? {} : { newPhone: shown }),
      at,
    });
    this.post(number.wabaId, change, 'identity-change');
    return { previousUserId: previous.userId, userId: current.userId, messageId };
  }

  /** `POST /_sandbox/webhooks/link-click`. */
  linkClick(input: unknown): { clickComponent: 'cta' | 'body' } {
    if (!isRecord(input)) fail('link click must be a JSON object');
    const { number } = this.numberOf(input);
    const clickComponent = input.clickComponent ?? 'cta';
    if (clickComponent !== 'cta' && clickComponent !== 'body') fail('clickComponent must be cta or body');
    const optional = (key: string) => (input[key] === undefined ? {} : { [key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)]: text(input, key) });
    const data = { click_component: clickComponent, ...optional('productId'), ...optional('clickId'), ...optional('trackingToken') };
    const at = Math.floor(this.deps.state.now() / 1000);
    const change: WebhookChange = {
      field: 'messages',
      value: {
        messaging_product: 'whatsapp',
        metadata: { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId },
        user_actions: [{ action_type: 'marketing_messages_link_click', timestamp: String(at), marketing_messages_link_click_data: data }],
      },
    };
    this.post(number.wabaId, change, 'link-click');
    return { clickComponent };
  }

  /** `POST /_sandbox/webhooks/user-preferences`. */
  setPreference(input: unknown): { userId: string; value: 'stop' | 'resume' } {
    if (!isRecord(input)) fail('user preference must be a JSON object');
    const { number, businessId } = this.numberOf(input);
    const value = input.value;
    if (value !== 'stop' && value !== 'resume') fail('value must be stop or resume');
    const from = input.from === undefined ? undefined : phone(input, 'from');
    const fromUserId = input.fromUserId === undefined ? undefined : text(input, 'fromUserId');
    if (from === undefined && fromUserId === undefined) fail('from or fromUserId is required');
    const { users, state } = this.deps;
    const user = users.sender(businessId, from === undefined ? { userId: fromUserId! } : { phone: from });
    const at = state.now();
    const visible = users.phoneVisible(number.phoneNumberId, user, at) ? user.phone : undefined;
    this.post(number.wabaId, userPreferencesChange(number, user, visible, value, at), `user-preference-${value}`);
    return { userId: user.userId, value };
  }
}
