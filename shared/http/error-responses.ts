/**
 * The one table that turns errors into HTTP answers. Error classes carry no status; this
 * table decides it. Anything not listed is a 500 with a generic message: internal details,
 * stacks and `error.toString()` never reach a client.
 */
import { contractErrorOf } from '../sending/graph-error';
import type { GraphError } from '../sending/ports';
import type { RouteDefinition, SurfaceName } from '../../runtime-contract/route-manifest';
import type { ErrorDescription } from './surface-responses';

interface Mapping {
  statusCode: number;
  /** The code the client sees (several errors may share one). */
  code: string;
  /** Fixed client message; when absent a 4xx exposes the error's own message. */
  message?: string;
  /** Wording a surface's contract fixes for this failure. */
  surfaceMessages?: Partial<Record<SurfaceName, string>>;
  /** `Retry-After` header (seconds) for failures a later retry can fix; the body is unchanged. */
  retryAfterHeaderSeconds?: number;
  /** The error carries its own wait (`retryAfterSeconds`): `Retry-After` header and body field. */
  retryAfterFromError?: true;
  /** The error carries Meta's Graph error (`graphError`), passed through in the body. */
  passesGraphError?: true;
  /** The error carries `details` (plain data for the client, e.g. the earlier job a key names), added to the body's error object. */
  detailsFromError?: true;
}

const UNAVAILABLE = 'Service temporarily unavailable; retry with backoff';
/** Store faults clear within seconds (throttling, a timed-out request); one second is the first retry. */
const STORE_RETRY_AFTER_SECONDS = 1;
const rejected: Mapping = { statusCode: 400, code: 'REJECTED' };
const storeUnavailable: Mapping = { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE, retryAfterHeaderSeconds: STORE_RETRY_AFTER_SECONDS };
const authStoreUnavailable: Mapping = {
  statusCode: 503,
  code: 'AUTH_STORE_UNAVAILABLE',
  message: 'Authentication storage timed out; retry with backoff',
  retryAfterHeaderSeconds: STORE_RETRY_AFTER_SECONDS,
};

/** Keyed by the error's own `code` (each error class has a unique one); an unlisted code is a 500. */
const mappings: Readonly<Record<string, Mapping>> = {
  MALFORMED_JSON: { statusCode: 400, code: 'MALFORMED_JSON' },
  JSON_NESTING_TOO_DEEP: { statusCode: 400, code: 'JSON_NESTING_TOO_DEEP' },
  UNSUPPORTED_CONTENT_TYPE: { statusCode: 400, code: 'UNSUPPORTED_CONTENT_TYPE' },
  REQUEST_VALIDATION: { statusCode: 400, code: 'VALIDATION_FAILED' },
  PAYLOAD_TOO_LARGE: { statusCode: 413, code: 'PAYLOAD_TOO_LARGE' },
  RATE_LIMIT_EXCEEDED: { statusCode: 429, code: 'RATE_LIMITED', retryAfterFromError: true },
  UNROUTABLE_REQUEST: { statusCode: 404, code: 'NOT_FOUND', message: 'Route not found' },

  // Store faults a retry can fix (shared/adapters/dynamodb/dynamodb-errors.ts classifies them).
  STORE_UNAVAILABLE: storeUnavailable,
  RATE_LIMIT_STORE_UNAVAILABLE: storeUnavailable,
  INBOX_STORE_UNAVAILABLE: storeUnavailable,
  OUTBOUND_QUEUE_UNAVAILABLE: storeUnavailable,
  UPSTREAM_ID_STORE_UNAVAILABLE: storeUnavailable,
  TENANCY_STORE_UNAVAILABLE: authStoreUnavailable,
  CREDENTIAL_STORE_UNAVAILABLE: authStoreUnavailable,

  INVALID_CREDENTIAL: {
    statusCode: 401,
    code: 'UNAUTHORIZED',
    message: 'Missing or invalid API key',
    surfaceMessages: {
      organization: 'Invalid access token',
      upstream: 'Missing, invalid or expired access token',
      v1: 'Missing or invalid API key',
    },
  },
  BUSINESS_ACCOUNT_NEEDS_AUTHORIZATION: { statusCode: 401, code: 'BUSINESS_ACCOUNT_NEEDS_AUTHORIZATION' },
  // The kill switch (docs/OPERATIONS.md "Suspending an organization"): a valid credential, every surface.
  ORGANIZATION_SUSPENDED: { statusCode: 403, code: 'ORGANIZATION_SUSPENDED' },

  DUPLICATE_RECIPIENT: { statusCode: 400, code: 'DUPLICATE_RECIPIENT' },
  RECIPIENT_NUMBER: { statusCode: 400, code: 'INVALID_RECIPIENT' },
  SENDER_NOT_OWNED: { statusCode: 401, code: 'SENDER_NOT_OWNED' },
  OPERATION_OUTSIDE_KEY_SCOPE: { statusCode: 403, code: 'OUTSIDE_KEY_SCOPE' },
  BUSINESS_ACCOUNT_INCOMPLETE: { statusCode: 401, code: 'BUSINESS_ACCOUNT_INCOMPLETE' },
  NO_BUSINESS_ACCOUNT: { statusCode: 401, code: 'NO_BUSINESS_ACCOUNT' },
  OUTSIDE_SERVICE_WINDOW: { statusCode: 400, code: 'OUTSIDE_SERVICE_WINDOW' },
  TEMPLATE_NOT_FOUND: { statusCode: 400, code: 'TEMPLATE_NOT_FOUND' },
  TEMPLATE_NOT_APPROVED: { statusCode: 400, code: 'TEMPLATE_NOT_APPROVED' },
  TEMPLATE_MISMATCH: { statusCode: 400, code: 'TEMPLATE_MISMATCH' },
  SCHEDULED_AT: { statusCode: 400, code: 'VALIDATION_FAILED' },
  TEMPLATE_PARAMETER_COUNT: { statusCode: 400, code: 'TEMPLATE_PARAMETER_COUNT' },
  // Rich templates (docs/BROADCAST.md "Rich templates"): values that do not fit the template's components, or a template no broadcast can fill.
  TEMPLATE_CONTENT: { statusCode: 400, code: 'TEMPLATE_CONTENT' },
  TEMPLATE_NOT_SENDABLE: { statusCode: 400, code: 'TEMPLATE_NOT_SENDABLE' },
  // Meta's 131062: the template cannot go to a business-scoped user id (docs/BROADCAST.md "Recipients by business-scoped user id").
  TEMPLATE_NOT_SENDABLE_TO_USER_ID: { statusCode: 400, code: 'TEMPLATE_NOT_SENDABLE' },
  // Meta's US marketing pause (docs/BROADCAST.md "US marketing pause"): a MARKETING template to a US recipient, named by index and field.
  US_MARKETING_PAUSED: { statusCode: 400, code: 'US_MARKETING_PAUSED' },
  // Meta's messaging tier (docs/BROADCAST.md "Messaging limits"): a 400 as the contract's "correct the request".
  MESSAGING_LIMIT_EXCEEDED: { statusCode: 400, code: 'MESSAGING_LIMIT_EXCEEDED' },
  JOB_NOT_FOUND: { statusCode: 404, code: 'JOB_NOT_FOUND' },
  // Follow-ups (docs/BROADCAST.md "Follow-ups"): well-formed requests the parent's recipients cannot serve.
  FOLLOW_UP_AUDIENCE: { statusCode: 422, code: 'FOLLOW_UP_AUDIENCE' },
  FOLLOW_UP_TOO_SOON: { statusCode: 422, code: 'FOLLOW_UP_TOO_SOON' },
  INVALID_CURSOR: { statusCode: 400, code: 'INVALID_CURSOR' },
  JOB_OF_ANOTHER_ORGANIZATION: { statusCode: 401, code: 'UNAUTHORIZED' },
  JOB_ALREADY_FINISHED: { statusCode: 409, code: 'JOB_ALREADY_FINISHED' },
  // A resume of a job not held until resumed (docs/BROADCAST.md "When Meta refuses the account").
  JOB_NOT_PAUSED: { statusCode: 409, code: 'JOB_NOT_PAUSED' },
  IDEMPOTENCY_KEY_IN_PROGRESS: { statusCode: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS' },
  IDEMPOTENCY_KEY_REUSED: { statusCode: 422, code: 'IDEMPOTENCY_KEY_REUSED' },
  // A key whose window is over, naming its earlier job (data.error.earlierJob): the same remedy, a new key.
  IDEMPOTENCY_KEY_EXPIRED: { statusCode: 422, code: 'IDEMPOTENCY_KEY_REUSED', detailsFromError: true },
  INVALID_IDEMPOTENCY_KEY: { statusCode: 400, code: 'INVALID_IDEMPOTENCY_KEY' },
  SENDER_NOT_CONNECTED: { statusCode: 400, code: 'SENDER_NOT_CONNECTED' },
  // generate-key's cap of live minted keys per organization (docs/FREEFORM-AND-EARLIER.md "generate-key").
  GENERATED_KEY_LIMIT_REACHED: { statusCode: 409, code: 'GENERATED_KEY_LIMIT_REACHED' },
  // The earlier operations' rejections: one answer, the contract's own text as the message.
  EARLIER_REJECTION: rejected,
  USER_NOT_SIGNED_UP: rejected,
  NO_SUBSCRIPTION: rejected,
  INSUFFICIENT_CREDITS: rejected,
  EARLIER_TEMPLATE_MISSING: rejected,
  EARLIER_TEMPLATE_LANGUAGE: rejected,
  INVALID_PHONE_NUMBER_FORMAT: { ...rejected, detailsFromError: true },
  PRICING_NOT_AVAILABLE: rejected,
  RECIPIENT_LIMIT_EXCEEDED: rejected,
  BROADCAST_NAME_TAKEN: rejected,

  // The /upstream wrapper (docs/UPSTREAM-WRAPPER.md): Meta's 4xx pass through with its Graph error in
  // the body (`upstream` below); rate limits are 429; 401/404 stay ours.
  UPSTREAM_RATE_LIMITED: { statusCode: 429, code: 'UPSTREAM_RATE_LIMITED', passesGraphError: true },
  UPSTREAM_REJECTED: { statusCode: 400, code: 'UPSTREAM_REJECTED', passesGraphError: true },
  UPSTREAM_TARGET_NOT_FOUND: { statusCode: 404, code: 'NOT_CONNECTED' },
  MIGRATION_SOURCE_NOT_ALLOWED: { statusCode: 400, code: 'MIGRATION_SOURCE_NOT_ALLOWED' },
  MEDIA_TOO_LARGE: { statusCode: 413, code: 'MEDIA_TOO_LARGE' },

  UPSTREAM_REQUEST: { statusCode: 502, code: 'UPSTREAM_REJECTED', message: 'The WhatsApp Cloud API rejected the request' },
  UPSTREAM_UNAVAILABLE: { statusCode: 502, code: 'UPSTREAM_UNAVAILABLE', message: 'The WhatsApp Cloud API is unreachable or timed out; retry with backoff' },

  // Organization administration (messages fixed by the remove-employee-bulk contract).
  NO_EMAIL_ADDRESSES: { statusCode: 400, code: 'NO_EMAILS_PROVIDED', message: 'No email IDs provided' },
  NO_EMPLOYEES_FOUND: { statusCode: 404, code: 'NO_USERS_FOUND', message: 'No users found for the provided emails' },

  // Customer webhook endpoints (docs/CUSTOMER-WEBHOOKS.md): another organization's endpoint answers as an unknown one.
  INVALID_WEBHOOK_URL: { statusCode: 400, code: 'INVALID_WEBHOOK_URL' },
  WEBHOOK_ADDRESS_NOT_ALLOWED: { statusCode: 400, code: 'WEBHOOK_ADDRESS_NOT_ALLOWED' },
  WEBHOOK_HOST_UNRESOLVABLE: { statusCode: 400, code: 'WEBHOOK_HOST_UNRESOLVABLE' },
  WEBHOOK_ENDPOINT_LIMIT: { statusCode: 400, code: 'WEBHOOK_ENDPOINT_LIMIT' },
  REDELIVERY_RANGE: { statusCode: 400, code: 'INVALID_REDELIVERY_RANGE' },
  REDELIVERY_QUOTA_EXCEEDED: { statusCode: 429, code: 'REDELIVERY_QUOTA_EXCEEDED', retryAfterFromError: true },
  WEBHOOK_MANAGEMENT_OUTSIDE_KEY_SCOPE: { statusCode: 403, code: 'OUTSIDE_KEY_SCOPE' },
  WEBHOOK_ENDPOINT_NOT_FOUND: { statusCode: 404, code: 'WEBHOOK_NOT_FOUND' },
  CUSTOMER_EVENT_NOT_FOUND: { statusCode: 404, code: 'EVENT_NOT_FOUND' },

  // Campaigns (docs/CAMPAIGNS.md): another organization's campaign answers as an unknown one.
  CAMPAIGN_NOT_FOUND: { statusCode: 404, code: 'CAMPAIGN_NOT_FOUND' },
  CAMPAIGN_AUDIENCE_NOT_FOUND: { statusCode: 400, code: 'AUDIENCE_NOT_FOUND' },
  CAMPAIGN_INVALID_CURSOR: { statusCode: 400, code: 'INVALID_CURSOR' },
  // A pause of a draft or finished campaign, a resume of one not paused by a person or Meta's hold, a cancel of a finished one (docs/CAMPAIGNS.md "Pause, resume and cancel").
  CAMPAIGN_NOT_PAUSABLE: { statusCode: 409, code: 'CAMPAIGN_NOT_PAUSABLE' },
  CAMPAIGN_NOT_PAUSED: { statusCode: 409, code: 'CAMPAIGN_NOT_PAUSED' },
  CAMPAIGN_ALREADY_FINISHED: { statusCode: 409, code: 'CAMPAIGN_ALREADY_FINISHED' },
  CAMPAIGN_ALREADY_LAUNCHED: { statusCode: 409, code: 'CAMPAIGN_ALREADY_LAUNCHED' },

  // Generic v1 API (codes listed in docs/ORGANIZATIONS-AND-V1.md).
  PLAN_DOES_NOT_INCLUDE_FEATURE: { statusCode: 403, code: 'PLAN_REQUIRED' },
  CONTACT_NOT_FOUND: { statusCode: 404, code: 'CONTACT_NOT_FOUND' },
  OPT_OUT_NOT_FOUND: { statusCode: 404, code: 'OPT_OUT_NOT_FOUND' },
  CONVERSATION_NOT_FOUND: { statusCode: 404, code: 'CONVERSATION_NOT_FOUND' },
  SENDER_NOT_FOUND: { statusCode: 404, code: 'SENDER_NOT_FOUND' },
  CONTACT_ALREADY_EXISTS: { statusCode: 409, code: 'CONTACT_ALREADY_EXISTS' },
  CONVERSATION_ALREADY_OPEN: { statusCode: 409, code: 'CONVERSATION_ALREADY_OPEN' },
  // Saved audiences (docs/CAMPAIGNS.md "Audiences").
  AUDIENCE_NOT_FOUND: { statusCode: 404, code: 'AUDIENCE_NOT_FOUND' },
  CONTACTS_AUDIENCE_READ_ONLY: { statusCode: 409, code: 'CONTACTS_AUDIENCE_READ_ONLY' },
  INVALID_AUDIENCE_CURSOR: { statusCode: 400, code: 'INVALID_CURSOR' },
  AUDIENCE_OUTSIDE_KEY_SCOPE: { statusCode: 403, code: 'OUTSIDE_KEY_SCOPE' },
  // The audit log (docs/PEOPLE.md "Audit log").
  INVALID_AUDIT_CURSOR: { statusCode: 400, code: 'INVALID_CURSOR' },
  AUDIT_LOG_OUTSIDE_KEY_SCOPE: { statusCode: 403, code: 'OUTSIDE_KEY_SCOPE' },
  AUDIENCE_BUSY: { statusCode: 409, code: 'AUDIENCE_BUSY', retryAfterHeaderSeconds: 5 },

  // People (docs/PEOPLE.md "Tokens", "People"): a person's sign-in, their role, the people routes.
  INVALID_PERSON_TOKEN: { statusCode: 401, code: 'UNAUTHORIZED' },
  ROLE_NOT_ALLOWED: { statusCode: 403, code: 'ROLE_NOT_ALLOWED' },
  PERSON_NOT_ALLOWED: { statusCode: 403, code: 'PERSON_NOT_ALLOWED' },
  IDENTITY_PROVIDER_UNAVAILABLE: {
    statusCode: 503,
    code: 'IDENTITY_PROVIDER_UNAVAILABLE',
    message: 'The identity provider did not answer; retry with backoff',
    retryAfterHeaderSeconds: 5,
  },
  ORGANIZATION_CHOICE_REQUIRED: { statusCode: 400, code: 'ORGANIZATION_CHOICE_REQUIRED' },
  PERSON_NOT_FOUND: { statusCode: 404, code: 'PERSON_NOT_FOUND' },
  LAST_ADMIN: { statusCode: 409, code: 'LAST_ADMIN' },
  PERSON_EXISTS: { statusCode: 409, code: 'PERSON_EXISTS' },
  PEOPLE_MANAGEMENT_OUTSIDE_KEY_SCOPE: { statusCode: 403, code: 'OUTSIDE_KEY_SCOPE' },
  INVALID_PEOPLE_INPUT: { statusCode: 400, code: 'VALIDATION_FAILED' },
  // The organization's API keys (docs/PEOPLE.md "API keys"): another organization's key answers as an unknown one.
  API_KEY_NOT_FOUND: { statusCode: 404, code: 'API_KEY_NOT_FOUND' },
  API_KEY_MANAGEMENT_OUTSIDE_KEY_SCOPE: { statusCode: 403, code: 'OUTSIDE_KEY_SCOPE' },
  API_KEY_SENDER_NOT_FOUND: { statusCode: 400, code: 'PHONE_NUMBER_NOT_FOUND' },
  // The contact policy (docs/CAMPAIGNS.md "Frequency caps").
  INVALID_CONTACT_POLICY: { statusCode: 400, code: 'VALIDATION_FAILED' },
  CONTACT_POLICY_OUTSIDE_KEY_SCOPE: { statusCode: 403, code: 'OUTSIDE_KEY_SCOPE' },

  // The docs page: a renderer file it does not serve answers as an unknown route.
  DOCS_ASSET_NOT_FOUND: { statusCode: 404, code: 'NOT_FOUND', message: 'Route not found' },
  // The campaign console: a file it does not serve answers as an unknown route.
  CONSOLE_ASSET_NOT_FOUND: { statusCode: 404, code: 'NOT_FOUND', message: 'Route not found' },

  // Meta's webhooks (docs/DELIVERY-STATUS.md "Webhook endpoint"): any non-200 makes Meta retry.
  WEBHOOK_SIGNATURE_INVALID: { statusCode: 401, code: 'INVALID_SIGNATURE' },
  WEBHOOK_VERIFICATION_FAILED: { statusCode: 403, code: 'VERIFICATION_FAILED' },
  WEBHOOK_PAYLOAD_TOO_LARGE: { statusCode: 413, code: 'PAYLOAD_TOO_LARGE' },
  WEBHOOK_SOURCE_NOT_ALLOWED: { statusCode: 403, code: 'FORBIDDEN' },
  WEBHOOK_SOURCE_HELD_BACK: { statusCode: 429, code: 'THROTTLED', retryAfterFromError: true },
  META_EVENTS_UNAVAILABLE: storeUnavailable,
  // Not provisioned yet (npm run admin -- set-meta-app): Meta keeps the batch and retries.
  META_APP_NOT_CONFIGURED: { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE },
};

/** The error codes the table knows (tests check every error class's code against it). */
export const mappedErrorCodes: readonly string[] = Object.keys(mappings);

/** Every answer the table gives, by error code (the OpenAPI document lists them per status). */
export const errorAnswers: readonly { errorCode: string; statusCode: number; code: string; retryAfter: boolean }[] = Object.entries(mappings).map(
  ([errorCode, mapping]) => ({
    errorCode,
    statusCode: mapping.statusCode,
    code: mapping.code,
    retryAfter: Boolean(mapping.retryAfterFromError || mapping.retryAfterHeaderSeconds),
  }),
);

/** The answer to any error the table does not list. */
export const genericServerError: Readonly<ErrorDescription> = { statusCode: 500, code: 'INTERNAL_ERROR', message: 'Internal Server Error' };

const GENERIC_SERVER_ERROR = genericServerError;

/**
 * `wording`: the route's own messages for every 400 and every 5xx answer (the manifest's
 * `badRequestMessage` / `serverErrorMessage`), for contracts that fix them.
 */
export function describeError(
  error: unknown,
  surface: SurfaceName,
  wording: Pick<RouteDefinition, 'badRequestMessage' | 'serverErrorMessage' | 'unauthorizedAnswer'> = {},
): ErrorDescription {
  const description = describeMappedError(error, surface);
  if (description.statusCode === 401 && wording.unauthorizedAnswer) return { ...description, ...wording.unauthorizedAnswer };
  const message = description.statusCode >= 500 ? wording.serverErrorMessage : description.statusCode === 400 ? wording.badRequestMessage : undefined;
  return message === undefined ? description : { ...description, message };
}

interface CodedError extends Error {
  code?: unknown;
  retryAfterSeconds?: unknown;
  graphError?: GraphError;
  details?: unknown;
}

function describeMappedError(error: unknown, surface: SurfaceName): ErrorDescription {
  if (!(error instanceof Error)) return GENERIC_SERVER_ERROR;
  const coded = error as CodedError;
  const mapping = typeof coded.code === 'string' && Object.hasOwn(mappings, coded.code) ? mappings[coded.code] : undefined;
  if (!mapping) return GENERIC_SERVER_ERROR;
  const exposeOwnMessage = mapping.statusCode < 500 && mapping.message === undefined;
  return {
    statusCode: mapping.statusCode,
    code: mapping.code,
    message: mapping.surfaceMessages?.[surface] ?? (exposeOwnMessage ? error.message : (mapping.message ?? GENERIC_SERVER_ERROR.message)),
    retryAfterSeconds: mapping.retryAfterFromError && typeof coded.retryAfterSeconds === 'number' ? coded.retryAfterSeconds : undefined,
    retryAfterHeaderSeconds: mapping.retryAfterHeaderSeconds,
    upstream: mapping.passesGraphError && coded.graphError ? contractErrorOf(coded.graphError) : undefined,
    details: mapping.detailsFromError && typeof coded.details === 'object' && coded.details !== null ? (coded.details as Record<string, unknown>) : undefined,
  };
}
