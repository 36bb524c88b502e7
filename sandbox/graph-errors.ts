/**
 * Meta's Graph API errors, one function per error the sandbox can answer.
 *
 * Body shape is the YAML's GraphAPIError: `{ error: { message, type, code, error_subcode?,
 * error_data?, is_transient?, fbtrace_id } }`. WhatsApp-specific codes (13xxxx) carry
 * `error_data: { messaging_product, details }` as Cloud API responses do. HTTP statuses follow
 * the "HTTP Status Code" column of Meta's WhatsApp error-code table: clients are told to key on
 * `code`, but retry logic usually keys on the status, so it has to be the real one.
 */
import { randomBytes } from 'node:crypto';

export interface GraphErrorDetail {
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  error_data?: { messaging_product: 'whatsapp'; details: string };
  is_transient?: boolean;
  /** Meta's user-facing explanation, sent by the template and flow management endpoints. */
  error_user_title?: string;
  error_user_msg?: string;
}

export interface GraphErrorBody {
  error: GraphErrorDetail & { fbtrace_id: string };
}

export class GraphError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly detail: GraphErrorDetail,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail.message);
    this.name = 'GraphError';
  }

  /** A fresh trace id per response, as Meta gives every failed call its own. */
  toBody(): GraphErrorBody {
    return { error: { ...this.detail, fbtrace_id: newFbtraceId() } };
  }
}

export function newFbtraceId(): string {
  return `A${randomBytes(17).toString('base64url').slice(0, 22)}`;
}

const GRAPH_DOCS = 'Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api';

function whatsappError(httpStatus: number, code: number, title: string, details: string, subcode?: number): GraphError {
  return new GraphError(httpStatus, {
    message: `(#${code}) ${title}`,
    type: 'OAuthException',
    code,
    ...(subcode === undefined ? {} : { error_subcode: subcode }),
    error_data: { messaging_product: 'whatsapp', details },
  });
}

/** Missing, unknown, or not the owner's token. */
export function invalidAccessToken(): GraphError {
  const message = 'Invalid OAuth access token - Cannot parse access token';
  return new GraphError(401, { message, type: 'OAuthException', code: 190 }, { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${message}"` });
}

/**
 * A known token that no longer works: the state an account is in when its user must authorize
 * the app again. Message and subcode as in Meta's own examples (subcode 463 = expired session).
 */
export function sessionExpired(): GraphError {
  const message = 'Error validating access token: Session has expired';
  return new GraphError(
    401,
    { message, type: 'OAuthException', code: 190, error_subcode: 463 },
    { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${message}"` },
  );
}

/** Unknown object id, or a method the object's edge does not support. */
export function unsupportedRequest(method: string, objectId: string): GraphError {
  return new GraphError(400, {
    message:
      `Unsupported ${method.toLowerCase()} request. Object with ID '${objectId}' does not exist, ` +
      `cannot be loaded due to missing permissions, or does not support this operation. ${GRAPH_DOCS}`,
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
  });
}

/** Unknown edge or unknown `fields` entry on a known node. */
export function nonexistingField(field: string, nodeType: string): GraphError {
  return new GraphError(400, {
    message: `(#100) Tried accessing nonexisting field (${field}) on node type (${nodeType})`,
    type: 'OAuthException',
    code: 100,
  });
}

/** Paths Graph cannot route at all (no version prefix, too many segments). */
export function unknownPathComponents(components: string): GraphError {
  return new GraphError(400, { message: `Unknown path components: ${components}`, type: 'OAuthException', code: 2500 });
}

export function invalidParameter(message: string): GraphError {
  return new GraphError(400, { message: `(#100) ${message}`, type: 'OAuthException', code: 100 });
}

/** Meta names nested parameters PHP-style: `text['body']`, `template['language']['code']`. */
export function requiredParameter(path: string): GraphError {
  return invalidParameter(`The parameter ${path} is required.`);
}

export function invalidJsonBody(): GraphError {
  return invalidParameter('Invalid JSON in request body');
}

/**
 * Template and flow management errors: Meta answers "Invalid parameter" and puts the
 * explanation in `error_user_title` / `error_user_msg`, which is what UIs show.
 */
export function userFacingError(code: number, title: string, userMessage: string, subcode?: number, message = 'Invalid parameter'): GraphError {
  return new GraphError(400, {
    message: code === 100 ? message : `(#${code}) ${message}`,
    type: 'OAuthException',
    code,
    ...(subcode === undefined ? {} : { error_subcode: subcode }),
    is_transient: false,
    error_user_title: title,
    error_user_msg: userMessage,
  });
}

/** A name + language pair the WABA already has. */
export function templateAlreadyExists(language: string): GraphError {
  return userFacingError(
    100,
    'Content in This Language Already Exists',
    `There is already ${language} content for this template. You can create a new template and try again.`,
    2388024,
  );
}

/** Meta keeps a deleted template's name + language reserved for four weeks. */
export function templateLanguageBeingDeleted(language: string): GraphError {
  return userFacingError(
    100,
    'Message Template Language Is Being Deleted',
    `New ${language} content can't be added while the existing ${language} content is being deleted. Try again in 4 weeks or make a new message template.`,
    2388023,
  );
}

/** Flow management errors (139001 update, 139002 publish, 139003 deprecate, 139004 delete). */
export function flowError(code: 139001 | 139002 | 139003 | 139004, title: string, userMessage: string): GraphError {
  return userFacingError(code, title, userMessage, undefined, title);
}

/** WhatsApp-specific errors with Meta's title and `error_data.details`, for admin endpoints. */
export function whatsappRequestError(httpStatus: number, code: number, title: string, details: string): GraphError {
  return whatsappError(httpStatus, code, title, details);
}

/** Sends from a number that was deregistered (or never registered). */
export function accountNotRegistered(phoneNumberId: string): GraphError {
  return whatsappError(400, 133010, 'Account not registered', `Phone number ${phoneNumberId} is not registered on the Cloud API`);
}

/** Per-number throughput exceeded. Meta's table lists HTTP 400 for 130429, not 429. */
export function rateLimitHit(): GraphError {
  return whatsappError(
    400,
    130429,
    'Rate limit hit',
    'Message failed to send because there were too many messages sent from this phone number in a short period of time',
    2494055,
  );
}

/** No template with that name in that language, or one that is not (yet) approved. */
export function templateNotFound(name: string, language: string): GraphError {
  return whatsappError(404, 132001, 'Template name does not exist in the translation', `template name (${name}) does not exist in ${language}`);
}

export function templatePaused(name: string, language: string): GraphError {
  return whatsappError(400, 132015, 'Template is Paused', `Template ${name} (${language}) is paused due to low quality`);
}

/**
 * Meta's answer for a message a BSUID may not receive (authentication templates; bid templates on
 * the Marketing Messages API): ../shared/meta/usernames-and-bsuid.md §7.
 */
export function bsuidRecipientNotSupported(details: string): GraphError {
  return whatsappError(400, 131062, 'Business-scoped User ID (BSUID) recipients are not supported for this message.', details);
}

export function templateDisabled(name: string, language: string): GraphError {
  return whatsappError(400, 132016, 'Template is Disabled', `Template ${name} (${language}) has been disabled`);
}

const COUNT_MISMATCH = 'Number of parameters does not match the expected number of params';

/** `component` is Meta's prefix of the details: `body`, `header`, `buttons`, or a card's `cards[1].body`. */
export function templateParamCountMismatch(component: string, got: number, expected: number): GraphError {
  return whatsappError(
    400,
    132000,
    COUNT_MISMATCH,
    `${component}: number of localizable_params (${got}) does not match the expected number of params (${expected})`,
  );
}

/** A carousel send must carry exactly the template's number of cards. */
export function carouselCardCountMismatch(got: number, expected: number): GraphError {
  return whatsappError(400, 132000, COUNT_MISMATCH, `carousel: number of cards (${got}) does not match the expected number of cards (${expected})`);
}

/** A parameter of another kind than the template's (a media header missing: `received UNKNOWN`). */
export function templateFormatMismatch(details: string): GraphError {
  return whatsappError(400, 132012, 'Parameter format does not match format in the created template', details);
}

/** A value the template needs is absent: a dynamic button's parameter, a named body parameter. */
export function templateParameterMissing(details: string): GraphError {
  return whatsappError(400, 131008, 'Required parameter is missing', details);
}

/** Text longer than the component allows once the parameters are substituted. */
export function templateTextTooLong(details: string): GraphError {
  return whatsappError(400, 132005, 'Template Hydrated Text Too Long', details);
}

/** Meta's `(#100) Invalid parameter` with the reason in `error_data.details`. */
export function invalidTemplateParameter(details: string): GraphError {
  return whatsappError(400, 100, 'Invalid parameter', details);
}

/** `/marketing_messages` with a UTILITY or AUTHENTICATION template. */
export function marketingTemplatesOnly(): GraphError {
  return whatsappError(400, 131055, 'Method not allowed', 'Only marketing template messages are supported');
}

/**
 * `/marketing_messages` with `product_policy: STRICT` from a business that has not accepted the
 * Marketing Messages API terms. Code and message as a vendor page shows them (Meta documents no
 * error for this case); the `(#200)` inside a 131055 error is theirs.
 */
export function marketingTermsNotAccepted(): GraphError {
  return new GraphError(400, {
    message: '(#200) You must accept the Marketing Messages Lite API terms to use the API.',
    type: 'OAuthException',
    code: 131055,
    error_data: {
      messaging_product: 'whatsapp',
      details: 'The business has not accepted the Marketing Messages API terms of service, and product_policy STRICT forbids falling back to Cloud API',
    },
  });
}

/** A MARKETING template through Cloud API while `disable_marketing_messages_on_cloud_api` is set. */
export function marketingDisabledOnCloudApi(): GraphError {
  return whatsappError(
    400,
    131063,
    'Marketing templates disabled for Cloud API',
    'Marketing template messages are disabled on Cloud API for this WhatsApp Business Account (disable_marketing_messages_on_cloud_api); send them with the Marketing Messages API',
  );
}

/** A marketing template not yet synced to the business's ad account (up to 10 minutes at Meta). */
export function templateStillSyncing(name: string, language: string): GraphError {
  return whatsappError(
    400,
    134101,
    'Your template is still syncing',
    `Template ${name} (${language}) is still syncing with the Marketing Messages API; try again in up to 10 minutes`,
  );
}

/** What `errorRate` answers: Meta's retryable "service" error. */
export function transientServiceError(): GraphError {
  return new GraphError(500, {
    message: 'An unexpected error has occurred. Please retry your request later.',
    type: 'OAuthException',
    code: 2,
    is_transient: true,
  });
}

/** Last resort for a sandbox bug, shaped like Meta's own catch-all. */
export function unknownError(): GraphError {
  return new GraphError(500, { message: 'An unknown error has occurred.', type: 'OAuthException', code: 1, is_transient: true });
}

/** A template with a max price (`optimization_spec`) sent through Cloud API: Meta sends it through the Marketing Messages API only. */
export function maxPriceNeedsMarketingMessages(name: string, language: string): GraphError {
  return whatsappError(
    400,
    131061,
    'Max price templates are supported only on the Marketing Messages API',
    `Template ${name} (${language}) has a max price (optimization_spec); send it with POST /{phone-number-id}/marketing_messages`,
  );
}

/** A max-price template to a user in a country where Meta offers no max price. */
export function maxPriceNotAvailableInCountry(country: string): GraphError {
  return whatsappError(
    400,
    131065,
    "Max price is not available in the recipient's country",
    `Max price (optimization_spec) is not available for recipients in ${country}; send a template without a max price`,
  );
}
