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
import type { PricingCategory } from '../message-events';
import { parseMessageRequest, type MessageRequest } from '../message-validation';
import { countryOf } from '../phone-format';
import { isRecord, ParamReader } from '../request-params';
import type { StoredAccount, StoredTemplate } from '../sandbox-state';
import { sendSpecOf } from '../template-send-spec';
import { checkTemplateSend } from '../template-send-validation';
import { ok, route, type GraphOutcome, type GraphRoute, type RouteContext } from './route-kit';

/** Meta echoes `biz_opaque_callback_data` (at most 512 characters) in the message's status webhooks. */
const MAX_CALLBACK_DATA_LENGTH = 512;

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
 * Validation first (deterministic client errors), then injected faults, then throughput — so
 * `recipientErrors` fire regardless of load and only accepted messages use up throughput.
 */
function deliver(context: PhoneContext, body: unknown, message: SendRequest, policy?: ProductPolicy): GraphOutcome {
  const { control, limiter, log, events, messageIds, webhooks } = context.deps;
  const { owner, phone } = context.node;
  if (!phone.registered) throw accountNotRegistered(phone.number.id);
  const { template, via } = checkTemplate(context, message, policy);

  const callbackData = callbackDataOf(body);

  const timeout = control.takeRecipientTimeout(message.waId);
  if (timeout !== undefined && !timeout.accepted) return { kind: 'hold' };
  const rule = control.takeRecipientError(message.waId);
  if (rule !== undefined) throw injectedError(rule.code, rule.httpStatus, rule.message);
  if (control.shouldFailTransiently()) throw transientServiceError();
  if (!limiter.tryAcquire(phone.number.id, control.throughputFor(phone.number.id))) throw rateLimitHit();

  // Decided on arrival, like Meta: the message goes out whether or not its answer reaches the client.
  const answerLost = timeout?.accepted === true || control.shouldLoseAnswer();
  const messageId = messageIds.next(message.waId);
  const at = context.now();
  log.record({
    messageId,
    phoneNumberId: phone.number.id,
    recipient: message.waId,
    type: message.type,
    body,
    receivedAt: new Date(at).toISOString(),
    ...(via === undefined ? {} : { via }),
    ...(answerLost ? { answerLost: true as const } : {}),
  });
  // A fallback send is Cloud API's and priced `marketing`; only the MM API's is `marketing_lite`.
  const category: PricingCategory =
    template === undefined ? 'SERVICE' : via === 'marketing_messages' ? 'MARKETING_LITE' : template.template.category;
  // Free-form messages can only be sent inside a customer service window, which is free.
  const pricingType = template === undefined ? 'FREE_CUSTOMER_SERVICE' : 'REGULAR';
  events.record({
    at,
    wabaId: owner.account.wabaId,
    phoneNumberId: phone.number.id,
    displayPhoneNumber: phone.number.displayPhoneNumber,
    recipient: message.waId,
    country: countryOf(message.waId),
    ...(template === undefined ? {} : { templateId: template.template.id }),
    pricingCategory: category,
    pricingType,
  });
  webhooks.messageAccepted({
    messageId,
    wabaId: owner.account.wabaId,
    phoneNumberId: phone.number.id,
    displayPhoneNumber: phone.number.displayPhoneNumber,
    recipient: message.waId,
    acceptedAt: at,
    ...(callbackData === undefined ? {} : { callbackData }),
    pricingCategory: category,
    pricingType,
  });
  if (answerLost) return { kind: 'hold' };
  const held = template !== undefined && control.takeRecipientHold(message.waId);
  return ok({
    messaging_product: 'whatsapp',
    contacts: [{ input: message.to, wa_id: message.waId }],
    // Meta reports message_status only for template messages; a paced template's may be held.
    messages: [template === undefined ? { id: messageId } : { id: messageId, message_status: held ? 'held_for_quality_assessment' : 'accepted' }],
  });
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
