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
  return new GraphError(
    401,
    { message, type: 'OAuthException', code: 190 },
    { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${message}"` },
  );
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
  return whatsappError(
    404,
    132001,
    'Template name does not exist in the translation',
    `template name (${name}) does not exist in ${language}`,
  );
}

export function templatePaused(name: string, language: string): GraphError {
  return whatsappError(400, 132015, 'Template is Paused', `Template ${name} (${language}) is paused due to low quality`);
}

export function templateDisabled(name: string, language: string): GraphError {
  return whatsappError(400, 132016, 'Template is Disabled', `Template ${name} (${language}) has been disabled`);
}

export function templateParamCountMismatch(component: 'header' | 'body', got: number, expected: number): GraphError {
  return whatsappError(
    400,
    132000,
    'Number of parameters does not match the expected number of params',
    `${component}: number of localizable_params (${got}) does not match the expected number of params (${expected})`,
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

interface CatalogEntry {
  title: string;
  httpStatus: number;
  details?: string;
  transient?: boolean;
}

/** Codes a test is likely to inject per recipient, with Meta's titles and HTTP statuses. */
const ERROR_CATALOG: Record<number, CatalogEntry> = {
  1: { title: 'An unknown error has occurred.', httpStatus: 500, transient: true },
  2: { title: 'Service temporarily unavailable', httpStatus: 503, transient: true },
  4: { title: 'Application request limit reached', httpStatus: 400, transient: true },
  10: { title: 'Permission Denied', httpStatus: 403 },
  100: { title: 'Invalid parameter', httpStatus: 400 },
  190: { title: 'Access token has expired', httpStatus: 401 },
  368: { title: 'Temporarily blocked for policies violations', httpStatus: 403 },
  80007: { title: 'Rate limit issues', httpStatus: 400 },
  130429: { title: 'Rate limit hit', httpStatus: 400 },
  130472: { title: "User's number is part of an experiment", httpStatus: 400 },
  131000: { title: 'Something went wrong', httpStatus: 500 },
  131005: { title: 'Access denied', httpStatus: 403 },
  131008: { title: 'Required parameter is missing', httpStatus: 400 },
  131009: { title: 'Parameter value is not valid', httpStatus: 400 },
  131016: { title: 'Service unavailable', httpStatus: 500 },
  131021: { title: 'Recipient cannot be sender', httpStatus: 400 },
  131026: {
    title: 'Message Undeliverable',
    httpStatus: 400,
    details: 'Message failed to send because the recipient is not a WhatsApp user or cannot receive messages',
  },
  131031: { title: 'Account has been locked', httpStatus: 403 },
  131042: { title: 'Business eligibility payment issue', httpStatus: 400 },
  131047: {
    title: 'Re-engagement message',
    httpStatus: 400,
    details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  131048: { title: 'Spam rate limit hit', httpStatus: 400 },
  131049: { title: 'This message was not delivered to maintain healthy ecosystem engagement.', httpStatus: 400 },
  131050: {
    title: 'User has stopped receiving marketing messages',
    httpStatus: 400,
    details: 'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
  },
  131051: { title: 'Unsupported message type', httpStatus: 400 },
  131056: {
    title: '(Business Account, Consumer Account) pair rate limit hit',
    httpStatus: 400,
    details: 'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time',
  },
  131057: { title: 'Account in maintenance mode', httpStatus: 500 },
  132000: { title: 'Number of parameters does not match the expected number of params', httpStatus: 400 },
  132001: { title: 'Template name does not exist in the translation', httpStatus: 404 },
  132015: { title: 'Template is Paused', httpStatus: 400 },
  132016: { title: 'Template is Disabled', httpStatus: 400 },
  133010: { title: 'Account not registered', httpStatus: 400 },
};

/** Meta's title and details for a code, as a `failed` status webhook carries them. */
export function errorDescription(code: number): { title: string; details: string } {
  const entry = ERROR_CATALOG[code];
  const title = entry?.title ?? 'Sandbox injected error';
  return { title, details: entry?.details ?? title };
}

/** The error a `recipientErrors` rule answers; unknown codes get a generic title and HTTP 400. */
export function injectedError(code: number, httpStatus?: number, message?: string): GraphError {
  const entry = ERROR_CATALOG[code];
  const title = message ?? entry?.title ?? 'Sandbox injected error';
  const status = httpStatus ?? entry?.httpStatus ?? 400;
  if (code >= 130000) {
    return whatsappError(status, code, title, entry?.details ?? title);
  }
  return new GraphError(status, {
    message: `(#${code}) ${title}`,
    type: 'OAuthException',
    code,
    ...(entry?.transient ? { is_transient: true } : {}),
  });
}
