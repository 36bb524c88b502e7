/**
 * Meta's webhook bodies as the sandbox posts them, and their signature. Shapes follow
 * ../shared/meta/business-messaging-api_v23.0.yaml (StatusMessageValue, Statuses, StatusError,
 * IncomingMessageValueGeneral) and Meta's `message_template_status_update` reference; every body
 * is `{ object: "whatsapp_business_account", entry: [{ id: <WABA id>, changes: [...] }] }`.
 */
import { createHmac } from 'node:crypto';
import type { PricingCategory, PricingType } from './message-events';

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
  /** The recipient's WhatsApp id (digits). */
  recipient: string;
  /** Milliseconds since the epoch. */
  acceptedAt: number;
  /** Echoed on every status of the message, as Meta does, when the send set it. */
  callbackData?: string;
  pricingCategory: PricingCategory;
  pricingType: PricingType;
}

export interface StatusError {
  code: number;
  title: string;
  message: string;
  error_data: { details: string };
  href: string;
}

/** One `statuses[]` element. */
export type StatusPayload = Record<string, unknown> & { id: string; status: DeliveryStatus; timestamp: string; recipient_id: string };

export interface WebhookChange {
  field: 'messages' | 'message_template_status_update';
  value: Record<string, unknown>;
}

export interface WebhookBody {
  object: 'whatsapp_business_account';
  entry: Array<{ id: string; time?: number; changes: WebhookChange[] }>;
}

const ERROR_CODES_HREF = 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';
const CONVERSATION_LIFETIME_SECONDS = 24 * 60 * 60;

export function unixSeconds(milliseconds: number): string {
  return String(Math.floor(milliseconds / 1000));
}

/** Meta's per-message pricing block: category and type in lower case. */
function pricingOf(send: AcceptedSend): Record<string, unknown> {
  return {
    billable: send.pricingType === 'REGULAR',
    pricing_model: 'PMP',
    category: send.pricingCategory.toLowerCase(),
    type: send.pricingType.toLowerCase(),
  };
}

/** A stable conversation per (number, recipient, category), as analytics count conversations. */
function conversationOf(send: AcceptedSend): Record<string, unknown> {
  const id = Buffer.from(`${send.phoneNumberId}.${send.recipient}.${send.pricingCategory}`).toString('hex').slice(0, 32);
  return {
    id,
    expiration_timestamp: unixSeconds(send.acceptedAt + CONVERSATION_LIFETIME_SECONDS * 1000),
    origin: { type: send.pricingCategory.toLowerCase() },
  };
}

/**
 * One status of an accepted send. `conversation` and `pricing` ride on `sent` and `delivered`
 * (Meta: "only with sent and one of delivered/read"); `errors` only on `failed`.
 */
export function statusPayload(send: AcceptedSend, status: DeliveryStatus, at: number, error?: StatusError): StatusPayload {
  return {
    id: send.messageId,
    status,
    timestamp: unixSeconds(at),
    recipient_id: send.recipient,
    ...(send.callbackData === undefined ? {} : { biz_opaque_callback_data: send.callbackData }),
    ...(status === 'sent' || status === 'delivered' ? { conversation: conversationOf(send), pricing: pricingOf(send) } : {}),
    ...(status === 'failed' && error !== undefined ? { errors: [error] } : {}),
  };
}

export function statusError(code: number, title: string, details: string): StatusError {
  return { code, title, message: title, error_data: { details }, href: ERROR_CODES_HREF };
}

function metadataOf(number: BusinessNumber): Record<string, string> {
  return { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId };
}

/** A `messages` change carrying statuses of one business number. */
export function statusesChange(number: BusinessNumber, statuses: StatusPayload[]): WebhookChange {
  return { field: 'messages', value: { messaging_product: 'whatsapp', metadata: metadataOf(number), statuses } };
}

export interface InboundText {
  messageId: string;
  /** The sender's WhatsApp id (digits). */
  from: string;
  profileName: string;
  text: string;
  at: number;
}

/** A `messages` change carrying one inbound text message and its sender's contact. */
export function inboundMessageChange(number: BusinessNumber, message: InboundText): WebhookChange {
  return {
    field: 'messages',
    value: {
      messaging_product: 'whatsapp',
      metadata: metadataOf(number),
      contacts: [{ profile: { name: message.profileName }, wa_id: message.from }],
      messages: [{ from: message.from, id: message.messageId, timestamp: unixSeconds(message.at), type: 'text', text: { body: message.text } }],
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
