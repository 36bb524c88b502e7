/**
 * The audit log's recorder (docs/PEOPLE.md "Audit log"): every state-changing call of the broadcast
 * and organization surfaces that has a caller is recorded once its answer is decided: who (the
 * person, else the credential), when, from where, what, and how it ended (status, outcome, the
 * error's code). A refusal after authentication (a role, a validation, a conflict) is recorded too.
 *
 * The action already happened, so a failed write never changes the answer: it is retried in place
 * briefly, then logged (no personal data) and counted (`auditWriteFailed`, the AuditWriteFailed metric).
 */
import type { RouteDefinition } from '../../../runtime-contract/route-manifest';
import { isCredentialAuth } from '../../../runtime-contract/route-keys';
import type { AuditActor, AuditEntry } from '../../audit/audit-entry';
import { outcomeOf } from '../../audit/audit-entry';
import { logger } from '../../observability/logger';
import { StoreUnavailableError } from '../../ports/errors';
import { callWithRetries, type StoreRetryScope } from '../../ports/store-retry';
import { describeError } from '../error-responses';
import type { AuthenticatedCaller, HttpRequest } from '../http-operation';
import type { PipelineMiddleware, PipelineRequest } from './pipeline-request';

/**
 * Whether the pipeline records a route's calls: a method that changes something (not GET), a
 * caller (a credential route), on the broadcast and organization surfaces. The v1 API and the
 * /upstream wrapper are not audited (docs/PEOPLE.md "What is not recorded").
 *
 * @example
 * isAuditedRoute({ surface: 'broadcast', method: 'POST', auth: 'broadcast-api-key' } as RouteDefinition); // true
 */
export const isAuditedRoute = (route: Pick<RouteDefinition, 'surface' | 'method' | 'auth'>): boolean =>
  route.method !== 'GET' && isCredentialAuth(route.auth) && (route.surface === 'broadcast' || route.surface === 'organization');

/** A dry run (`?dryRun=true` of a route that has one) changes nothing: not recorded. */
const isDryRun = (request: HttpRequest): boolean => request.route.dryRunRateLimit !== undefined && request.query.dryRun === 'true';

/** Brief: three tries within a second. The caller is waiting for an answer already decided. */
const RETRY_WINDOW_MS = 1_000;
const retryPolicy = { maxAttempts: 3, baseDelayMs: 50, maxDelayMs: 200 } as const;

const actorOf = (caller: AuthenticatedCaller): AuditActor =>
  caller.person
    ? { kind: 'person', personId: caller.person.personId, email: caller.person.email, role: caller.person.role }
    : { kind: 'credential', credentialId: caller.credentialId, credentialKind: caller.credentialKind };

/**
 * The entry of a request whose answer is `statusCode` (`errorCode` when it failed).
 *
 * @example
 * auditEntryOf(request, request.caller, 202); // { actor: { kind: 'credential', … }, action: 'sendTemplateBroadcast', outcome: 'succeeded', … }
 */
export function auditEntryOf(request: HttpRequest, caller: AuthenticatedCaller, statusCode: number, errorCode?: string): Omit<AuditEntry, 'entryId'> {
  return {
    organizationId: caller.organizationId,
    at: request.receivedAt.toISOString(),
    actor: actorOf(caller),
    action: request.route.operation,
    method: request.method,
    path: request.path,
    target: { ...request.pathParameters },
    sourceIp: request.sourceIp,
    statusCode,
    outcome: outcomeOf(statusCode),
    ...(errorCode === undefined ? {} : { errorCode }),
    requestId: request.requestId,
  };
}

async function recordAnswer(pipeline: PipelineRequest): Promise<void> {
  const request = pipeline.internal.request;
  const caller = request?.caller;
  if (!request || !caller || !isAuditedRoute(request.route) || isDryRun(request)) return;
  const dependencies = pipeline.internal.dependencies;
  const auditLog = dependencies?.auditLog;
  // The group's build checked that an audited group has its log; a test's stand-in may not.
  if (!auditLog) return;
  const statusCode = pipeline.response?.statusCode ?? 500;
  const errorCode =
    pipeline.error !== undefined && pipeline.error !== null && statusCode >= 400
      ? describeError(pipeline.error, request.route.surface, request.route).code
      : undefined;
  const deadline = Date.now() + RETRY_WINDOW_MS;
  const scope: StoreRetryScope = {
    policy: retryPolicy,
    isRetryable: (error) => error instanceof StoreUnavailableError,
    timeLeftMs: () => deadline - Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
  };
  try {
    await callWithRetries(scope, 'auditLog.record', () => auditLog.record(auditEntryOf(request, caller, statusCode, errorCode)));
  } catch (error) {
    // The operation, the request id and the fault's name only: no email, address or message text.
    logger.error('audit entry not recorded', {
      action: request.route.operation,
      auditRequestId: request.requestId,
      fault: (error as Error)?.name ?? 'unknown',
    });
    dependencies.auditWriteFailed?.();
  }
}

/** Records after the answer: `after` for a success, `onError` once the error table has answered (it runs before this step). */
export const recordAudit = (): PipelineMiddleware => ({
  after: recordAnswer,
  onError: recordAnswer,
});
