/**
 * Sends: `POST /{phone-number-id}/messages` (every message type, read receipts, typing
 * indicators) and `POST /{phone-number-id}/marketing_messages` (marketing templates through the
 * Marketing Messages API). Both run the same pipeline; fault injection (`errorRate`,
 * `recipientErrors`, `recipientTimeouts`, `latency.timeoutRate`) and throughput apply to sends only.
 */
import type { PhoneState } from '../account-state';
import { injectedError } from '../graph-error-catalog';
import {
  accountNotRegistered,
  bsuidRecipientNotSupported,
  invalidParameter,
  invalidTemplateParameter,
  rateLimitHit,
  requiredParameter,
  templateDisabled,
  templateNotFound,
  templatePaused,
  transientServiceError,
} from '../graph-errors';
import {
  checkCloudApiTemplate,
  marketingRoute,
  PRODUCT_POLICIES,
  requireMarketingTemplate,
  type MarketingRoute,
  type ProductPolicy,
} from '../marketing-messages';
import type { PricingCategory, PricingType } from '../message-events';
import { checkMaxPriceSend } from '../max-price';
import { parseMessageRequest, type MessageRequest } from '../message-validation';
import { countryOf } from '../phone-format';
import { isRecord, ParamReader } from '../request-params';
import type { StoredAccount, StoredTemplate } from '../sandbox-state';
import { sendSpecOf } from '../template-send-spec';
import { threadNotOwned } from '../thread-standby';
import { checkTemplateSend } from '../template-send-validation';
import type { Addressee } from '../user-directory';
import { parseBsuid } from '../user-identity';
import type { AcceptedSend } from '../webhook-payloads';
import { ok, route, type GraphOutcome, type GraphRoute, type RouteContext } from './route-kit';

/** Meta echoes `biz_opaque_callback_data` (at most 512 characters) in the message's status webhooks. */
const MAX_CALLBACK_DATA_LENGTH = 512;
/** The MM API's max-price fields (`bid_spec`, later `optimization_spec`). */
const BID_FIELDS = ['bid_spec', 'optimization_spec'] as const;

function callbackDataOf(body: unknown): string | undefined {
  const value = isRecord(body) ? body.biz_opaque_callback_data : undefined;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > MAX_CALLBACK_DATA_LENGTH) {
    throw invalidParameter(`Param biz_opaque_callback_data must be a string of at most ${MAX_CALLBACK_DATA_LENGTH} characters.`);
  }
  return value;
}

type PhoneContext = RouteContext<{ kind: 'phone'; owner: StoredAccount; phone: PhoneState }>;
type SendRequest = Extract<MessageRequest, { kind: 'send' }>;

/** A template a send may use: approved, or paused/disabled so the send gets Meta's specific error. */
function sendableTemplate(context: PhoneContext, message: SendRequest): StoredTemplate | undefined {
  if (message.template === undefined) return undefined;
  const { name, languageCode } = message.template;
  const stored = context.deps.state.findTemplate(context.node.owner, name, languageCode);
  const status = stored?.template.status;
  if (stored === undefined || (status !== 'APPROVED' && status !== 'PAUSED' && status !== 'DISABLED')) {
    throw templateNotFound(name, languageCode);
  }
  if (status === 'PAUSED') throw templatePaused(name, languageCode);
  if (status === 'DISABLED') throw templateDisabled(name, languageCode);
  return stored;
}

/**
 * The template checks of a send, in Meta's order: found and usable, the MM API's category rule,
 * the components against the template, then the route (MM API, fallback, or refused).
 * `policy` is set for `/marketing_messages` only.
 */
function checkTemplate(context: PhoneContext, message: SendRequest, policy: ProductPolicy | undefined): { template?: StoredTemplate; via?: MarketingRoute } {
  const template = sendableTemplate(context, message);
  if (template === undefined || message.template === undefined) return {};
  if (policy !== undefined) requireMarketingTemplate(template.template);
  checkTemplateSend(sendSpecOf(template), message.template);
  const { marketing } = context.node.owner;
  if (policy === undefined) {
    checkCloudApiTemplate(marketing, template.template);
    return { template };
  }
  return { template, via: marketingRoute(marketing, template.template, policy) };
}

/**
 * The user a send names: `to` (a number) or `recipient` (a BSUID of the sender's portfolio or a
 * parent BSUID); BSUIDs may not receive authentication templates (131062, Meta's message).
 */
function addresseeOf(context: PhoneContext, message: SendRequest, template: StoredTemplate | undefined, body: unknown): Addressee {
  const { users } = context.deps;
  const businessId = context.node.owner.account.businessId;
  if (message.recipient === undefined) return users.byPhone(businessId, message.to, message.waId);
  const addressee = users.byBsuid(businessId, message.recipient);
  if (template?.template.category === 'AUTHENTICATION') {
    throw bsuidRecipientNotSupported('Authentication templates (one-tap, zero-tap and copy code) cannot be sent to a business-scoped user ID.');
  }
  // A max price (MM API) cannot apply to a BSUID send: Meta names the bid field in the details.
  const bidField = BID_FIELDS.find((field) => isRecord(body) && body[field] !== undefined);
  if (bidField !== undefined) throw bsuidRecipientNotSupported(`Param ${bidField} is not supported for business-scoped user ID recipients.`);
  return addressee;
}

/** The send's price: Meta's category and type, lower-cased in the status webhooks. */
function pricingOf(template: StoredTemplate | undefined, via: MarketingRoute | undefined): { pricingCategory: PricingCategory; pricingType: PricingType } {
  // A fallback send is Cloud API's and priced `marketing`; only the MM API's is `marketing_lite`.
  const pricingCategory: PricingCategory = template === undefined ? 'SERVICE' : via === 'marketing_messages' ? 'MARKETING_LITE' : template.template.category;
  // Free-form messages start free; the free tier decides when their delivery is planned (service-tier.ts).
  return { pricingCategory, pricingType: template === undefined ? 'FREE_CUSTOMER_SERVICE' : 'REGULAR' };
}

/** The answer: `wa_id` for a send to a number, `user_id` (and no `wa_id`) for one to a BSUID. */
function sendAnswer(addressee: Addressee, messageId: string, template: StoredTemplate | undefined, heldByControl: boolean): GraphOutcome {
  const contact = addressee.addressedBy === 'phone' ? { input: addressee.input, wa_id: addressee.phone } : { input: addressee.input, user_id: addressee.input };
  // Meta reports message_status only for template messages; a paced template's sends are held (or a recipient's, by `recipientHolds`).
  const status = template?.info.pacing === undefined && !heldByControl ? 'accepted' : 'held_for_quality_assessment';
  return ok({
    messaging_product: 'whatsapp',
    contacts: [contact],
    messages: [template === undefined ? { id: messageId } : { id: messageId, message_status: status }],
  });
}

/**
 * Validation first (deterministic client errors), then injected faults, then throughput — so
 * `recipientErrors` fire regardless of load and only accepted messages use up throughput.
 * Fault rules match the user's number, or the BSUID when the sandbox does not know the number.
 */
function deliver(context: PhoneContext, body: unknown, message: SendRequest, policy?: ProductPolicy): GraphOutcome {
  const { control, limiter, webhooks, users } = context.deps;
  const { phone } = context.node;
  if (!phone.registered) throw accountNotRegistered(phone.number.id);
  const { template, via } = checkTemplate(context, message, policy);
  // Another app holds the number's conversations: a standby app may not answer (thread-standby.ts).
  if (phone.standby === true && template === undefined) throw threadNotOwned(phone.number.id);
  const addressee = addresseeOf(context, message, template, body);
  if (template !== undefined) {
    const country = addressee.phone === undefined ? (parseBsuid(addressee.userId)?.country ?? 'ZZ') : countryOf(addressee.phone);
    checkMaxPriceSend({
      template: template.template,
      via,
      addressedBy: addressee.addressedBy,
      country,
      unavailableIn: (code) => control.maxPriceUnavailableIn(code),
    });
  }
  const callbackData = callbackDataOf(body);
  const recipient = addressee.phone ?? addressee.userId;

  const timeout = control.takeRecipientTimeout(recipient);
  if (timeout !== undefined && !timeout.accepted) return { kind: 'hold' };
  const rule = control.takeSenderError(phone.number.id, context.node.owner.account.wabaId) ?? control.takeRecipientError(recipient);
  if (rule !== undefined) throw injectedError(rule.code, rule.httpStatus, rule.message);
  if (control.shouldFailTransiently()) throw transientServiceError();
  if (!limiter.tryAcquire(phone.number.id, control.throughputFor(phone.number.id))) throw rateLimitHit();

  // Decided on arrival, like Meta: the message goes out whether or not its answer reaches the client.
  const answerLost = timeout?.accepted === true || control.shouldLoseAnswer();
  const at = context.now();
  const accepted = record(context, {
    body,
    message,
    addressee,
    recipient,
    at,
    answerLost,
    ...(via === undefined ? {} : { via }),
    ...(template === undefined ? {} : { template }),
  });
  const phoneVisible = addressee.addressedBy === 'phone' || users.phoneVisible(phone.number.id, addressee, at);
  // A message sent to the number is an exchange with it (Meta's 30-day rule); one sent to a BSUID is not.
  if (addressee.addressedBy === 'phone') users.noteContact(phone.number.id, recipient, at);
  const pacing = template?.info.pacing;
  webhooks.messageAccepted({
    ...accepted,
    addressee,
    phoneVisible,
    acceptedAt: at,
    ...(callbackData === undefined ? {} : { callbackData }),
    ...pricingOf(template, via),
    ...(message.type === 'reaction' ? { reaction: true as const } : {}),
    ...(pacing === undefined || template === undefined ? {} : { pacing: { templateId: template.template.id, holdMs: pacing.holdMs } }),
  });
  if (answerLost) return { kind: 'hold' };
  return sendAnswer(addressee, accepted.messageId, template, template !== undefined && control.takeRecipientHold(recipient));
}

interface AcceptedRecord {
  body: unknown;
  message: SendRequest;
  addressee: Addressee;
  /** The number, or the BSUID when the number is unknown. */
  recipient: string;
  at: number;
  answerLost: boolean;
  via?: MarketingRoute;
  template?: StoredTemplate;
}

/** Logs the accepted message and its analytics event; returns the fields its webhooks need. */
function record(
  context: PhoneContext,
  input: AcceptedRecord,
): Pick<AcceptedSend, 'messageId' | 'wabaId' | 'phoneNumberId' | 'displayPhoneNumber' | 'recipient'> {
  const { log, events, messageIds } = context.deps;
  const { owner, phone } = context.node;
  const { addressee, recipient, at, via, template } = input;
  const messageId = messageIds.next(recipient);
  log.record({
    messageId,
    phoneNumberId: phone.number.id,
    recipient,
    ...(addressee.addressedBy === 'bsuid' ? { recipientUserId: addressee.input } : {}),
    type: input.message.type,
    body: input.body,
    receivedAt: new Date(at).toISOString(),
    ...(via === undefined ? {} : { via }),
    ...(input.answerLost ? { answerLost: true as const } : {}),
  });
  const number = { wabaId: owner.account.wabaId, phoneNumberId: phone.number.id, displayPhoneNumber: phone.number.displayPhoneNumber };
  events.record({
    at,
    ...number,
    recipient,
    country: addressee.phone === undefined ? (parseBsuid(addressee.userId)?.country ?? 'ZZ') : countryOf(addressee.phone),
    ...(template === undefined ? {} : { templateId: template.template.id }),
    ...pricingOf(template, via),
  });
  return { messageId, ...number, recipient };
}

function sendMessage(context: PhoneContext): GraphOutcome {
  const body = context.json();
  const message = parseMessageRequest(body);
  // Read receipts and typing indicators are acknowledged without being sends.
  if (message.kind === 'read') return ok({ success: true });
  return deliver(context, body, message);
}

/**
 * The Marketing Messages API takes template messages only, with the extra fields of the YAML's
 * MarketingMessageRequestPayload (recipient_type and type are required there).
 */
function sendMarketingMessage(context: PhoneContext): GraphOutcome {
  const body = context.json();
  if (!isRecord(body)) throw invalidParameter('Invalid JSON in request body');
  const params = ParamReader.of(body);
  if (!params.has('messaging_product')) throw requiredParameter('messaging_product');
  if (!params.has('recipient_type')) throw requiredParameter('recipient_type');
  params.enumValue('recipient_type', ['individual'] as const);
  if (!params.has('type')) throw requiredParameter('type');
  // Meta's answer for any other message type (error codes page, MM API section).
  if (body.type !== 'template') throw invalidTemplateParameter('Message must be a template message.');
  if (!params.has('template')) throw requiredParameter('template');
  const policy = params.optionalEnum('product_policy', PRODUCT_POLICIES) ?? 'CLOUD_API_FALLBACK';
  params.optionalBoolean('message_activity_sharing');
  if (body.status !== undefined) throw invalidParameter('Param status is not supported on marketing_messages.');
  const message = parseMessageRequest(body);
  if (message.kind !== 'send') throw invalidTemplateParameter('Message must be a template message.');
  return deliver(context, body, message, policy);
}

export const messagingRoutes: GraphRoute[] = [
  route('phone', 'POST', 'messages', sendMessage),
  route('phone', 'POST', 'marketing_messages', sendMarketingMessage),
];
