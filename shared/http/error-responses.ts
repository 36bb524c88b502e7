/**
 * The one table that turns errors into HTTP answers. Error classes carry no status; this
 * table decides it. Anything not listed is a 500 with a generic message: internal details,
 * stacks and `error.toString()` never reach a client.
 */
import {
  MalformedJsonError,
  PayloadTooLargeError,
  RequestValidationError,
  UnroutableRequestError,
  UnsupportedContentTypeError,
} from './errors';
import { RateLimitExceededError, RateLimitStoreUnavailableError } from '../rate-limiting/errors';
import {
  BusinessAccountIncompleteError,
  DuplicateRecipientError,
  IdempotencyKeyInProgressError,
  IdempotencyKeyReusedError,
  InvalidIdempotencyKeyError,
  JobNotFoundError,
  JobOfAnotherOrganizationError,
  EarlierRejectionError,
  SenderNotConnectedError,
  NoBusinessAccountError,
  OutboundQueueUnavailableError,
  RecipientNumberError,
  SenderNotOwnedError,
  OperationOutsideKeyScopeError,
  TemplateMismatchError,
  TemplateNotApprovedError,
  TemplateNotFoundError,
  TemplateParameterCountError,
} from '../broadcast/errors';
import { BusinessAccountNeedsAuthorizationError, InvalidCredentialError, PlanDoesNotIncludeFeatureError, TenancyStoreUnavailableError } from '../tenancy/errors';
import {
  MediaTooLargeError,
  MigrationSourceNotAllowedError,
  UpstreamRateLimitedError,
  UpstreamRejectedError,
  UpstreamIdStoreUnavailableError,
  UpstreamRequestError,
  UpstreamTargetNotFoundError,
  UpstreamUnavailableError,
} from '../upstream/errors';
import { contractErrorOf } from '../upstream/graph-error';
import { NoEmailAddressesError, NoEmployeesFoundError } from '../organizations/errors';
import {
  ContactAlreadyExistsError,
  ContactNotFoundError,
  ConversationAlreadyOpenError,
  ConversationNotFoundError,
  InboxStoreUnavailableError,
  SenderNotFoundError,
} from '../inbox/errors';
import type { RouteDefinition, SurfaceName } from '../../runtime-contract/route-manifest';
import type { ErrorDescription } from './surface-responses';

type ErrorClass = abstract new (...args: never[]) => Error;

interface Mapping {
  statusCode: number;
  code: string;
  /** Fixed client message; when absent a 4xx exposes the error's own message. */
  message?: string;
  /** Wording a surface's contract fixes for this failure. */
  surfaceMessages?: Partial<Record<SurfaceName, string>>;
}

const UNAVAILABLE = 'Service temporarily unavailable; retry with backoff';

const mappings: ReadonlyArray<[ErrorClass, Mapping]> = [
  [MalformedJsonError, { statusCode: 400, code: 'MALFORMED_JSON' }],
  [UnsupportedContentTypeError, { statusCode: 400, code: 'UNSUPPORTED_CONTENT_TYPE' }],
  [RequestValidationError, { statusCode: 400, code: 'VALIDATION_FAILED' }],
  [PayloadTooLargeError, { statusCode: 413, code: 'PAYLOAD_TOO_LARGE' }],
  [RateLimitExceededError, { statusCode: 429, code: 'RATE_LIMITED' }],
  [RateLimitStoreUnavailableError, { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE }],
  [UnroutableRequestError, { statusCode: 404, code: 'NOT_FOUND', message: 'Route not found' }],

  [
    InvalidCredentialError,
    {
      statusCode: 401,
      code: 'UNAUTHORIZED',
      message: 'Missing or invalid API key',
      surfaceMessages: {
        organization: 'Invalid access token',
        upstream: 'Missing, invalid or expired access token',
        v1: 'Missing or invalid API key',
      },
    },
  ],
  [TenancyStoreUnavailableError, { statusCode: 503, code: 'AUTH_STORE_UNAVAILABLE', message: 'Authentication storage timed out; retry with backoff' }],
  [BusinessAccountNeedsAuthorizationError, { statusCode: 401, code: 'BUSINESS_ACCOUNT_NEEDS_AUTHORIZATION' }],

  [DuplicateRecipientError, { statusCode: 400, code: 'DUPLICATE_RECIPIENT' }],
  [RecipientNumberError, { statusCode: 400, code: 'INVALID_RECIPIENT' }],
  [SenderNotOwnedError, { statusCode: 401, code: 'SENDER_NOT_OWNED' }],
  [OperationOutsideKeyScopeError, { statusCode: 403, code: 'OUTSIDE_KEY_SCOPE' }],
  [BusinessAccountIncompleteError, { statusCode: 401, code: 'BUSINESS_ACCOUNT_INCOMPLETE' }],
  [NoBusinessAccountError, { statusCode: 401, code: 'NO_BUSINESS_ACCOUNT' }],
  [TemplateNotFoundError, { statusCode: 400, code: 'TEMPLATE_NOT_FOUND' }],
  [TemplateNotApprovedError, { statusCode: 400, code: 'TEMPLATE_NOT_APPROVED' }],
  [TemplateMismatchError, { statusCode: 400, code: 'TEMPLATE_MISMATCH' }],
  [TemplateParameterCountError, { statusCode: 400, code: 'TEMPLATE_PARAMETER_COUNT' }],
  [JobNotFoundError, { statusCode: 404, code: 'JOB_NOT_FOUND' }],
  [JobOfAnotherOrganizationError, { statusCode: 401, code: 'UNAUTHORIZED' }],
  [IdempotencyKeyInProgressError, { statusCode: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS' }],
  [IdempotencyKeyReusedError, { statusCode: 422, code: 'IDEMPOTENCY_KEY_REUSED' }],
  [InvalidIdempotencyKeyError, { statusCode: 400, code: 'INVALID_IDEMPOTENCY_KEY' }],
  [EarlierRejectionError, { statusCode: 400, code: 'REJECTED' }],
  [SenderNotConnectedError, { statusCode: 400, code: 'SENDER_NOT_CONNECTED' }],
  [OutboundQueueUnavailableError, { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE }],

  // The /upstream wrapper (docs/UPSTREAM-WRAPPER.md): Meta's 4xx pass through with its Graph error in
  // the body (`upstream` below); rate limits are 429 (the subclass first); 401/404 stay ours.
  [UpstreamRateLimitedError, { statusCode: 429, code: 'UPSTREAM_RATE_LIMITED' }],
  [UpstreamRejectedError, { statusCode: 400, code: 'UPSTREAM_REJECTED' }],
  [UpstreamTargetNotFoundError, { statusCode: 404, code: 'NOT_CONNECTED' }],
  [MigrationSourceNotAllowedError, { statusCode: 400, code: 'MIGRATION_SOURCE_NOT_ALLOWED' }],
  [MediaTooLargeError, { statusCode: 413, code: 'MEDIA_TOO_LARGE' }],
  [UpstreamIdStoreUnavailableError, { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE }],

  [UpstreamRequestError, { statusCode: 502, code: 'UPSTREAM_REJECTED', message: 'The WhatsApp Cloud API rejected the request' }],
  [UpstreamUnavailableError, { statusCode: 502, code: 'UPSTREAM_UNAVAILABLE', message: 'The WhatsApp Cloud API is unreachable or timed out; retry with backoff' }],

  // Organization administration (messages fixed by the remove-employee-bulk contract).
  [NoEmailAddressesError, { statusCode: 400, code: 'NO_EMAILS_PROVIDED', message: 'No email IDs provided' }],
  [NoEmployeesFoundError, { statusCode: 404, code: 'NO_USERS_FOUND', message: 'No users found for the provided emails' }],

  // Generic v1 API (codes listed in docs/ORGANIZATIONS-AND-V1.md).
  [PlanDoesNotIncludeFeatureError, { statusCode: 403, code: 'PLAN_REQUIRED' }],
  [ContactNotFoundError, { statusCode: 404, code: 'CONTACT_NOT_FOUND' }],
  [ConversationNotFoundError, { statusCode: 404, code: 'CONVERSATION_NOT_FOUND' }],
  [SenderNotFoundError, { statusCode: 404, code: 'SENDER_NOT_FOUND' }],
  [ContactAlreadyExistsError, { statusCode: 409, code: 'CONTACT_ALREADY_EXISTS' }],
  [ConversationAlreadyOpenError, { statusCode: 409, code: 'CONVERSATION_ALREADY_OPEN' }],
  [InboxStoreUnavailableError, { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE }],
];

const GENERIC_SERVER_ERROR: ErrorDescription = {
  statusCode: 500,
  code: 'INTERNAL_ERROR',
  message: 'Internal Server Error',
};

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

function describeMappedError(error: unknown, surface: SurfaceName): ErrorDescription {
  if (!(error instanceof Error)) return GENERIC_SERVER_ERROR;
  const mapping = mappings.find(([errorClass]) => error instanceof errorClass)?.[1];
  if (!mapping) return GENERIC_SERVER_ERROR;
  const exposeOwnMessage = mapping.statusCode < 500 && mapping.message === undefined;
  return {
    statusCode: mapping.statusCode,
    code: mapping.code,
    message:
      mapping.surfaceMessages?.[surface] ?? (exposeOwnMessage ? error.message : (mapping.message ?? GENERIC_SERVER_ERROR.message)),
    retryAfterSeconds: error instanceof RateLimitExceededError ? error.retryAfterSeconds : undefined,
    upstream: error instanceof UpstreamRejectedError ? contractErrorOf(error.graphError) : undefined,
  };
}
