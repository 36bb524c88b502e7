/**
 * Meta's titles, HTTP statuses and details per error code, for the errors a test injects per
 * recipient (`recipientErrors`) and for `failed` status webhooks (`recipientFailures`). Titles
 * and statuses follow Meta's WhatsApp error-code table.
 */
import { GraphError, whatsappRequestError } from './graph-errors';

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
  131055: { title: 'Method not allowed', httpStatus: 400 },
  131063: { title: 'Marketing templates disabled for Cloud API', httpStatus: 400 },
  131064: {
    title: 'Messaging limit reached',
    httpStatus: 400,
    details:
      'The business account has reached its messaging limit because of template-classification violations; the limit lifts after the enforcement period.',
  },
  130497: { title: 'Business account is restricted from messaging users in this country', httpStatus: 403 },
  132000: { title: 'Number of parameters does not match the expected number of params', httpStatus: 400 },
  132001: { title: 'Template name does not exist in the translation', httpStatus: 404 },
  132005: { title: 'Template Hydrated Text Too Long', httpStatus: 400 },
  132012: { title: 'Parameter format does not match format in the created template', httpStatus: 400 },
  132015: { title: 'Template is Paused', httpStatus: 400 },
  132016: { title: 'Template is Disabled', httpStatus: 400 },
  133010: { title: 'Account not registered', httpStatus: 400 },
  131070: { title: 'Thread not owned by the app', httpStatus: 400, details: 'Another app currently controls this conversation; this app is on standby for it' },
  134100: { title: 'Only marketing messages supported', httpStatus: 400 },
  134101: { title: 'Your template is still syncing', httpStatus: 400 },
  134102: { title: 'Template unavailable for use', httpStatus: 500 },
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
    return whatsappRequestError(status, code, title, entry?.details ?? title);
  }
  return new GraphError(status, {
    message: `(#${code}) ${title}`,
    type: 'OAuthException',
    code,
    ...(entry?.transient ? { is_transient: true } : {}),
  });
}
