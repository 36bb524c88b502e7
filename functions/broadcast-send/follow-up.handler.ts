import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation, type AuthenticatedCaller, type HttpRequest, type HttpResult } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { followUpSchema } from '../../shared/broadcast/follow-up.schema';
import { buildFollowUpRequest, followUpBroadcast } from '../../shared/broadcast/follow-up';
import { dryRunBroadcast } from '../../shared/broadcast/dry-run-broadcast';
import { broadcastQuerySchema } from '../../shared/broadcast/dry-run-request';
import { isJobIdShape } from '../../shared/broadcast/job-fan-out';
import { JobNotFoundError } from '../../shared/broadcast/errors';
import type { BroadcastSendDependencies } from './broadcast-send.composition';
import { jobIdHeader } from './job-id-header';
import { IN_PROGRESS_TIMEOUT_MS, idempotencyKeyOf } from './send-template-broadcast.handler';

/**
 * POST /broadcasts/{jobId}/follow-up: 202 with the new job, `followUpOf` and who it reached; with
 * `?dryRun=true`, 200 with the dry run of exactly that request (docs/BROADCAST.md "Follow-ups").
 */
export const followUp = httpOperation('broadcast-api-key', async (request, dependencies: BroadcastSendDependencies) => {
  const jobId = request.pathParameters.jobId ?? '';
  if (!isJobIdShape(jobId)) throw new JobNotFoundError(jobId);
  return answerFollowUp(request, dependencies, jobId);
});

/** The follow-up of `jobId` (a job's, or a campaign's job: campaign-follow-up.handler.ts), answered as above. */
export async function answerFollowUp(
  request: HttpRequest<AuthenticatedCaller<'broadcast-api-key'>>,
  dependencies: BroadcastSendDependencies,
  jobId: string,
): Promise<HttpResult> {
  const body = parseRequest(followUpSchema, request.body);
  const input = { jobId, body, unconfirmedAfterMs: dependencies.unconfirmedAfterMs };
  if (parseRequest(broadcastQuerySchema, request.query, 'query').dryRun === 'true') {
    // The same audience and request a real follow-up would build, checked like a broadcast's dry run: nothing written.
    const { request: built, audience } = await buildFollowUpRequest(dependencies, { caller: request.caller, ...input });
    const result = await dryRunBroadcast(dependencies, request.caller, built);
    const message = `Dry run of a follow-up of ${jobId}: ${result.totals.sendable} of ${audience.matched} matching recipients sendable; nothing was sent`;
    return { statusCode: 200, body: broadcastEnvelope(200, message, { ...result, followUpOf: jobId, audience }) };
  }
  const idempotencyKey = idempotencyKeyOf(request.headers);
  const { kind: _kind, ...job } = await followUpBroadcast(dependencies, request.caller, input, { idempotencyKey, inProgressTimeoutMs: IN_PROGRESS_TIMEOUT_MS });
  const message =
    'scheduledAt' in job
      ? `Follow-up scheduled for ${job.scheduledAt}`
      : `Follow-up of ${jobId} accepted for ${job.audience.matched - job.audience.optedOut - (job.audience.resendCapped ?? 0) - (job.audience.alreadyResent ?? 0)} recipients`;
  return { statusCode: 202, headers: job.jobId === undefined ? undefined : jobIdHeader(job.jobId), body: broadcastEnvelope(202, message, job) };
}
