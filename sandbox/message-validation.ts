/**
 * Validation of `POST /{phone-number-id}/messages` bodies, the checks Meta runs synchronously
 * before accepting a message. Anything it rejects is answered with code 100 and Meta's
 * PHP-style parameter paths (`text['body']`), so client error handling written against the
 * sandbox matches production.
 *
 * Template existence and parameters need the account's templates; this module only extracts
 * what the request supplies (`TemplateReference`, template-send-parse.ts), and
 * template-send-validation.ts compares it with the template.
 */
import { invalidParameter, requiredParameter } from './graph-errors';
import { isRecord, MEDIA_TYPES, oneOf, requireArray, requireRecord, requireString, validateLocation, validateMedia, type Json } from './message-fields';
import { parseTemplate, type TemplateReference } from './template-send-parse';

export type { TemplateReference } from './template-send-parse';
/** Kept here for callers of the earlier module; the template rules live in template-send-spec.ts. */
export { checkTemplateParams, countPlaceholders, expectedTemplateParams, type ExpectedTemplateParams } from './template-send-spec';

export const MESSAGE_TYPES = ['text', 'template', 'image', 'document', 'audio', 'video', 'sticker', 'location', 'interactive', 'contacts', 'reaction'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

const INTERACTIVE_TYPES = [
  'button',
  'list',
  'cta_url',
  'flow',
  'product',
  'product_list',
  'catalog_message',
  'location_request_message',
  'call_permission_request',
  'order_details',
  'order_status',
] as const;

const MAX_TEXT_BODY = 4096;
/** E.164 allows at most 15 digits; Meta also accepts a leading '+'. */
const RECIPIENT_PATTERN = /^\+?\d{3,15}$/;

/**
 * A send names its user by `to` (a phone number) or `recipient` (a BSUID or parent BSUID,
 * ../shared/meta/usernames-and-bsuid.md §6); with both, `to` wins and `recipient` is ignored.
 */
export type SendAddress = { to: string; waId: string; recipient?: never } | { recipient: string; to?: never; waId?: never };

export type MessageRequest = { kind: 'read'; messageId: string } | ({ kind: 'send'; type: MessageType; template?: TemplateReference } & SendAddress);

/** Parses a JSON request body the way Graph does: anything but an object is unusable. */
export function parseMessageRequest(body: unknown): MessageRequest {
  if (!isRecord(body)) throw invalidParameter('Invalid JSON in request body');
  const product = body.messaging_product;
  if (product === undefined || product === null || product === '') throw requiredParameter('messaging_product');
  if (product !== 'whatsapp') oneOf('messaging_product', ['whatsapp'], product);

  if (body.status !== undefined) return parseReadReceipt(body);

  if (body.recipient_type !== undefined && body.recipient_type !== 'individual') {
    oneOf('recipient_type', ['individual'], body.recipient_type);
  }
  const address = parseAddress(body);
  if (body.context !== undefined) {
    const context = requireRecord(body, 'context', 'context');
    requireString(context, 'message_id', "context['message_id']");
  }

  // Meta defaults a missing type to text.
  const type = body.type ?? 'text';
  if (typeof type !== 'string' || !(MESSAGE_TYPES as readonly string[]).includes(type)) {
    oneOf('type', MESSAGE_TYPES, type);
  }
  const messageType = type as MessageType;
  const template = validateContent(body, messageType);
  return { kind: 'send', ...address, type: messageType, template };
}

function parseAddress(body: Json): SendAddress {
  const absent = (value: unknown) => value === undefined || value === null || value === '';
  if (absent(body.to) && !absent(body.recipient)) {
    // The BSUID format itself is checked by the user directory, which knows the portfolio.
    return { recipient: requireString(body, 'recipient', 'recipient') };
  }
  const to = requireString(body, 'to', 'to');
  if (!RECIPIENT_PATTERN.test(to)) {
    throw invalidParameter("Param to must be a phone number of 3 to 15 digits with an optional leading '+'.");
  }
  return { to, waId: to.startsWith('+') ? to.slice(1) : to };
}

function parseReadReceipt(body: Json): MessageRequest {
  if (body.status !== 'read') oneOf('status', ['read'], body.status);
  const messageId = requireString(body, 'message_id', 'message_id');
  if (body.typing_indicator !== undefined) {
    const indicator = requireRecord(body, 'typing_indicator', 'typing_indicator');
    if (indicator.type !== 'text') oneOf("typing_indicator['type']", ['text'], indicator.type);
  }
  return { kind: 'read', messageId };
}

function validateContent(body: Json, type: MessageType): TemplateReference | undefined {
  if (MEDIA_TYPES.has(type)) {
    validateMedia(requireRecord(body, type, type), type);
    return undefined;
  }
  switch (type) {
    case 'text':
      validateText(requireRecord(body, 'text', 'text'));
      return undefined;
    case 'template':
      return parseTemplate(requireRecord(body, 'template', 'template'));
    case 'location':
      validateLocation(requireRecord(body, 'location', 'location'));
      return undefined;
    case 'interactive':
      validateInteractive(requireRecord(body, 'interactive', 'interactive'));
      return undefined;
    case 'contacts':
      validateContacts(body);
      return undefined;
    case 'reaction':
      validateReaction(requireRecord(body, 'reaction', 'reaction'));
      return undefined;
    default:
      return undefined;
  }
}

function validateText(text: Json): void {
  const messageBody = requireString(text, 'body', "text['body']");
  if (messageBody.length > MAX_TEXT_BODY) {
    throw invalidParameter(`Param text['body'] must be at most ${MAX_TEXT_BODY} characters long.`);
  }
  if (text.preview_url !== undefined && typeof text.preview_url !== 'boolean') {
    throw invalidParameter("Param text['preview_url'] must be a boolean.");
  }
}

function validateReaction(reaction: Json): void {
  requireString(reaction, 'message_id', "reaction['message_id']");
  // An empty emoji removes a reaction, so only its presence is required.
  if (typeof reaction.emoji !== 'string') throw requiredParameter("reaction['emoji']");
}

function validateContacts(body: Json): void {
  const contacts = requireArray(body, 'contacts', 'contacts', 1, 257);
  contacts.forEach((contact, index) => {
    const path = `contacts[${index}]`;
    if (!isRecord(contact)) throw invalidParameter(`Param ${path} must be a JSON object.`);
    const name = requireRecord(contact, 'name', `${path}['name']`);
    requireString(name, 'formatted_name', `${path}['name']['formatted_name']`);
  });
}

function validateInteractive(interactive: Json): void {
  const kind = interactive.type;
  if (kind === undefined || kind === null || kind === '') throw requiredParameter("interactive['type']");
  if (typeof kind !== 'string' || !(INTERACTIVE_TYPES as readonly string[]).includes(kind)) {
    oneOf("interactive['type']", INTERACTIVE_TYPES, kind);
  }
  const action = requireRecord(interactive, 'action', "interactive['action']");
  const needsBody = kind !== 'product' && kind !== 'location_request_message' && kind !== 'call_permission_request';
  if (needsBody) {
    const body = requireRecord(interactive, 'body', "interactive['body']");
    requireString(body, 'text', "interactive['body']['text']");
  }
  switch (kind) {
    case 'button': {
      const buttons = requireArray(action, 'buttons', "interactive['action']['buttons']", 1, 3);
      buttons.forEach((button, index) => {
        const path = `interactive['action']['buttons'][${index}]`;
        if (!isRecord(button)) throw invalidParameter(`Param ${path} must be a JSON object.`);
        if (button.type !== 'reply') oneOf(`${path}['type']`, ['reply'], button.type);
        const reply = requireRecord(button, 'reply', `${path}['reply']`);
        requireString(reply, 'id', `${path}['reply']['id']`);
        requireString(reply, 'title', `${path}['reply']['title']`);
      });
      return;
    }
    case 'list': {
      requireString(action, 'button', "interactive['action']['button']");
      const sections = requireArray(action, 'sections', "interactive['action']['sections']", 1, 10);
      sections.forEach((section, index) => {
        const path = `interactive['action']['sections'][${index}]`;
        if (!isRecord(section)) throw invalidParameter(`Param ${path} must be a JSON object.`);
        const rows = requireArray(section, 'rows', `${path}['rows']`, 1, 10);
        rows.forEach((row, rowIndex) => {
          const rowPath = `${path}['rows'][${rowIndex}]`;
          if (!isRecord(row)) throw invalidParameter(`Param ${rowPath} must be a JSON object.`);
          requireString(row, 'id', `${rowPath}['id']`);
          requireString(row, 'title', `${rowPath}['title']`);
        });
      });
      return;
    }
    case 'cta_url': {
      const parameters = requireRecord(action, 'parameters', "interactive['action']['parameters']");
      requireString(parameters, 'display_text', "interactive['action']['parameters']['display_text']");
      requireString(parameters, 'url', "interactive['action']['parameters']['url']");
      return;
    }
    case 'flow': {
      if (action.name !== 'flow') oneOf("interactive['action']['name']", ['flow'], action.name);
      requireRecord(action, 'parameters', "interactive['action']['parameters']");
      return;
    }
    case 'product':
      requireString(action, 'catalog_id', "interactive['action']['catalog_id']");
      requireString(action, 'product_retailer_id', "interactive['action']['product_retailer_id']");
      return;
    case 'product_list':
      requireString(action, 'catalog_id', "interactive['action']['catalog_id']");
      requireArray(action, 'sections', "interactive['action']['sections']", 1, 10);
      return;
    default:
      requireString(action, 'name', "interactive['action']['name']");
  }
}
