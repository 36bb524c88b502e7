/**
 * Meta's webhook bodies as the sandbox posts them, and their signature. Shapes follow
 * ../shared/meta/business-messaging-api_v23.0.yaml (StatusMessageValue, Statuses, StatusError,
 * IncomingMessageValueGeneral) and Meta's `message_template_status_update` reference; every body
 * is `{ object: "whatsapp_business_account", entry: [{ id: <WABA id>, changes: [...] }] }`.
 */
import { createHmac } from 'node:crypto';
import type { PricingCategory, PricingType } from './message-events';
import type { Addressee } from './user-directory';
import { inboundContentOf, type InboundReplyParts } from './inbound-reply';

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface BusinessNumber {
  wabaId: string;
  phoneNumberId: string;
  /** Digits, as Meta writes `metadata.display_phone_number`. */
  displayPhoneNumber: string;
}

/** What a status event needs to know about the accepted send it reports on. */
export interface AcceptedSend extends BusinessNumber {
  messageId: string;
  /** The recipient's WhatsApp id (digits), or the BSUID when the sandbox does not know the number. */
  recipient: string;
  /** Who the send named and how (`to` or `recipient`), with the user's BSUIDs and username. */
  addressee: Addressee;
  /** Whether the number may appear in this send's webhooks (always for a send to a number; §3 otherwise). */
  phoneVisible: boolean;
  /** Milliseconds since the epoch. */
  acceptedAt: number;
  /** Echoed on every status of the message, as Meta does, when the send set it. */
  callbackData?: string;
  pricingCategory: PricingCategory;
  pricingType: PricingType;
  /** Meta's `pricing.subtype`: `paid_exempt` on what an exempt account would be billed for (service-tier.ts). */
  pricingSubtype?: 'paid_exempt';
  /** A reaction: never charged and never counted in the free tier of service messages. */
  reaction?: true;
  /** A send of a template under pacing: its statuses wait `holdMs` (template-events.ts, control API). */
  pacing?: { templateId: string; holdMs: number };
}

export interface StatusError {
  code: number;
  title: string;
  message: string;
  error_data: { details: string };
  href: string;
}

/** One `statuses[]` element; `recipient_id` is omitted when the number is withheld. */
export type StatusPayload = Record<string, unknown> & { id: string; status: DeliveryStatus; timestamp: string; recipient_id?: string };

/** A status and the `contacts[]` entry that goes with it (none on `failed`). */
export interface StatusEntry {
  status: StatusPayload;
  contact?: Record<string, unknown>;
}

export interface WebhookChange {
  field: 'messages' | 'message_template_status_update' | 'message_template_quality_update' | 'template_category_update' | 'user_preferences' | 'standby';
  value: Record<string, unknown>;
}

export interface WebhookBody {
  object: 'whatsapp_business_account';
  entry: Array<{ id: string; time?: number; changes: WebhookChange[] }>;
}

const ERROR_CODES_HREF = 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';

export function unixSeconds(milliseconds: number): string {
  return String(Math.floor(milliseconds / 1000));
}

/** Categories Meta spells otherwise than the lower-cased analytics enum. */
const STATUS_CATEGORY: Partial<Record<PricingCategory, string>> = { AUTHENTICATION_INTERNATIONAL: 'authentication-international' };

/** Meta's per-message pricing block: category and type in lower case, `subtype` when the account is exempt. */
function pricingOf(send: AcceptedSend): Record<string, unknown> {
  return {
    billable: send.pricingType === 'REGULAR' && send.pricingSubtype === undefined,
    pricing_model: 'PMP',
    category: STATUS_CATEGORY[send.pricingCategory] ?? send.pricingCategory.toLowerCase(),
    type: send.pricingType.toLowerCase(),
    ...(send.pricingSubtype === undefined ? {} : { subtype: send.pricingSubtype }),
  };
}

/** The number of a send's user, when its webhooks may carry it. */
function visiblePhone(send: AcceptedSend): string | undefined {
  return send.phoneVisible ? send.addressee.phone : undefined;
}

/**
 * One status of an accepted send (../shared/meta/usernames-and-bsuid.md §5). `pricing` rides on
 * `sent` and `delivered` (Meta: "on sent and one of delivered/read"); `conversation` is left out,
 * as Meta does from v24.0 (the sandbox serves v25.0) outside free-entry-point windows, which the
 * sandbox never opens. `recipient_id` only when the number may be shown; `recipient_user_id`
 * always, except on a `failed` status of a send made to a number, which carries no BSUID at all.
 */
export function statusPayload(send: AcceptedSend, status: DeliveryStatus, at: number, error?: StatusError): StatusPayload {
  const phone = visiblePhone(send);
  const { addressee } = send;
  const withIds = status !== 'failed' || addressee.addressedBy === 'bsuid';
  return {
    id: send.messageId,
    status,
    timestamp: unixSeconds(at),
    ...(phone === undefined ? {} : { recipient_id: phone }),
    ...(withIds ? { recipient_user_id: addressee.userId } : {}),
    ...(withIds && addressee.parentUserId !== undefined ? { recipient_parent_user_id: addressee.parentUserId } : {}),
    ...(send.callbackData === undefined ? {} : { biz_opaque_callback_data: send.callbackData }),
    ...(status === 'sent' || status === 'delivered' ? { pricing: pricingOf(send) } : {}),
    ...(status === 'failed' && error !== undefined ? { errors: [error] } : {}),
  };
}

/** The `contacts[]` entry of a user: the number only when shown, the username only when asked for. */
export function contactOf(addressee: Addressee, phone: string | undefined, withUsername: boolean): Record<string, unknown> {
  const profile = {
    ...(addressee.profileName === undefined ? {} : { name: addressee.profileName }),
    ...(withUsername && addressee.username !== undefined ? { username: addressee.username } : {}),
  };
  return {
    ...(Object.keys(profile).length === 0 ? {} : { profile }),
    ...(phone === undefined ? {} : { wa_id: phone }),
    user_id: addressee.userId,
    ...(addressee.parentUserId === undefined ? {} : { parent_user_id: addressee.parentUserId }),
  };
}

/** A status with its contact: none on `failed`, the username on delivered and read only. */
export function statusEntry(send: AcceptedSend, status: DeliveryStatus, at: number, error?: StatusError): StatusEntry {
  const payload = statusPayload(send, status, at, error);
  if (status === 'failed') return { status: payload };
  return { status: payload, contact: contactOf(send.addressee, visiblePhone(send), status !== 'sent') };
}

export function statusError(code: number, title: string, details: string): StatusError {
  return { code, title, message: title, error_data: { details }, href: ERROR_CODES_HREF };
}

function metadataOf(number: BusinessNumber): Record<string, string> {
  return { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId };
}

/** A `messages` change carrying statuses of one business number, with their users' contacts. */
export function statusesChange(number: BusinessNumber, entries: StatusEntry[]): WebhookChange {
  const contacts = new Map<string, Record<string, unknown>>();
  for (const { contact } of entries) if (contact !== undefined) contacts.set(JSON.stringify(contact), contact);
  return {
    field: 'messages',
    value: {
      messaging_product: 'whatsapp',
      metadata: metadataOf(number),
      ...(contacts.size === 0 ? {} : { contacts: [...contacts.values()] }),
      statuses: entries.map((entry) => entry.status),
    },
  };
}

export interface InboundText {
  messageId: string;
  /** The sender, as the receiving business's portfolio sees them. */
  sender: Addressee;
  /** The sender's number, when this business number may see it (§3). */
  from?: string;
  /** Absent only on a tap (`reply.button` or `reply.buttonReply`). */
  text?: string;
  at: number;
  /** A reply to one of the business's messages, or a quick-reply tap (inbound-reply.ts). */
  reply?: InboundReplyParts;
}

/**
 * A `messages` change carrying one inbound text message (or a reply: inbound-reply.ts) and its sender's contact
 * (../shared/meta/usernames-and-bsuid.md §4): `wa_id` and `from` only when the number may be
 * shown (omitted, never empty), `user_id` and `from_user_id` always.
 */
export function inboundMessageChange(number: BusinessNumber, message: InboundText): WebhookChange {
  const { sender } = message;
  return {
    field: 'messages',
    value: {
      messaging_product: 'whatsapp',
      metadata: metadataOf(number),
      contacts: [contactOf(sender, message.from, true)],
      messages: [
        {
          ...(message.from === undefined ? {} : { from: message.from }),
          from_user_id: sender.userId,
          ...(sender.parentUserId === undefined ? {} : { from_parent_user_id: sender.parentUserId }),
          id: message.messageId,
          timestamp: unixSeconds(message.at),
          ...inboundContentOf(message.reply ?? {}, message.text, number.displayPhoneNumber.replace(/\D/g, '')),
        },
      ],
    },
  };
}

export interface TemplateStatusEvent {
  templateId: string;
  name: string;
  language: string;
  /** Meta's `event`: APPROVED, REJECTED, PAUSED, DISABLED, PENDING, … */
  event: string;
  reason?: string;
  at: number;
}

/**
 * `message_template_status_update`: Meta sends the template id as a number, `reason` null when it
 * has none, `other_info` on a pause and `disable_info` when disabled.
 */
export function templateStatusChange(update: TemplateStatusEvent): WebhookChange {
  const value: Record<string, unknown> = {
    event: update.event,
    message_template_id: Number(update.templateId),
    message_template_name: update.name,
    message_template_language: update.language,
    reason: update.reason ?? null,
  };
  if (update.event === 'PAUSED') {
    value.other_info = { title: 'FIRST_PAUSE', description: 'Your template has been paused because of low quality (sandbox).' };
  }
  if (update.event === 'DISABLED') value.disable_info = { disable_date: unixSeconds(update.at) };
  return { field: 'message_template_status_update', value };
}

/** Changes of one WABA in one POST body; `time` only where Meta sets it (template updates). */
export function webhookBody(wabaId: string, changes: WebhookChange[], time?: number): WebhookBody {
  return { object: 'whatsapp_business_account', entry: [{ id: wabaId, ...(time === undefined ? {} : { time: Math.floor(time / 1000) }), changes }] };
}

/** `X-Hub-Signature-256` value: `sha256=` + hex HMAC-SHA256 of the exact raw body with the app secret. */
export function hubSignature(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** A user's change of number as seen by one business portfolio: their old and new ids. */
export interface IdentityChangeEvent {
  messageId: string;
  /** `user_changed_number` (the new number may be shown) or `user_changed_user_id` (it may not). */
  type: 'user_changed_number' | 'user_changed_user_id';
  previous: Addressee;
  current: Addressee;
  /** The old number, when this business number may see it (`from`). */
  from?: string;
  /** The new number, when it may be shown (`system.wa_id`). */
  newPhone?: string;
  at: number;
}

/**
 * A `messages` change carrying Meta's identity-change system message
 * (../shared/meta/usernames-and-bsuid.md §4): no `contacts` (system messages have none), the
 * conversation's ids in `from` / `from_user_id`, the new ids and the previous ones in `system`.
 */
export function identityChangeMessageChange(number: BusinessNumber, event: IdentityChangeEvent): WebhookChange {
  const { previous, current } = event;
  const system = {
    body: event.type === 'user_changed_number' ? 'User changed number' : 'User changed their WhatsApp user ID',
    type: event.type,
    user_id: current.userId,
    ...(current.parentUserId === undefined ? {} : { parent_user_id: current.parentUserId }),
    ...(event.newPhone === undefined ? {} : { wa_id: event.newPhone }),
    previous_user_id: previous.userId,
    ...(previous.parentUserId === undefined ? {} : { previous_parent_user_id: previous.parentUserId }),
  };
  const message = {
    ...(event.from === undefined ? {} : { from: event.from }),
    from_user_id: previous.userId,
    id: event.messageId,
    timestamp: unixSeconds(event.at),
    type: 'system',
    system,
  };
  return { field: 'messages', value: { messaging_product: 'whatsapp', metadata: metadataOf(number), messages: [message] } };
}

/**
 * A `user_preferences` change (fact sheet row 6): the user stopped or resumed marketing messages
 * from inside WhatsApp. `wa_id` only when the number may be shown, `user_id` always.
 */
export function userPreferencesChange(number: BusinessNumber, user: Addressee, phone: string | undefined, value: 'stop' | 'resume', at: number): WebhookChange {
  const detail = value === 'stop' ? 'User requested to stop marketing messages' : 'User requested to resume marketing messages';
  const ids = {
    ...(phone === undefined ? {} : { wa_id: phone }),
    user_id: user.userId,
    ...(user.parentUserId === undefined ? {} : { parent_user_id: user.parentUserId }),
  };
  return {
    field: 'user_preferences',
    value: {
      messaging_product: 'whatsapp',
      metadata: metadataOf(number),
      contacts: [contactOf(user, phone, true)],
      user_preferences: [{ ...ids, category: 'marketing_messages', value, detail, timestamp: Number(unixSeconds(at)) }],
    },
  };
}
