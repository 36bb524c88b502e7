import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { parseTemplateBroadcastRequest } from '../../shared/broadcast/template-broadcast.schema';
import { sendTemplateBroadcast as acceptBroadcast, type SendTemplateBroadcastDependencies } from '../../shared/broadcast/send-template-broadcast';
import { dryRunBroadcast, type DryRunDependencies } from '../../shared/broadcast/dry-run-broadcast';
import { broadcastQuerySchema, parseDryRunRequest } from '../../shared/broadcast/dry-run-request';
import { idempotencyKeyOf } from '../../shared/broadcast/idempotency-key';
import { jobIdHeader } from './job-id-header';

/** A claim outlives the API Gateway integration timeout (29 s), then lapses so a crashed request frees its key. */
export const IN_PROGRESS_TIMEOUT_MS = 30_000;

/** The request's Idempotency-Key, shared by broadcasts, follow-ups, audience member imports and campaign launches (one rule: shared/broadcast/idempotency-key.ts). */
export { idempotencyKeyOf };

/** The contract fixes no wording here ("message states the bulk broadcast was queued"): plain English, 1 recipient. */
const queuedMessage = (recipients: number): string => `Bulk broadcast queued for ${recipients} recipient${recipients === 1 ? '' : 's'}`;

export const sendTemplateBroadcast = httpOperation(
  'broadcast-api-key',
  async (request, dependencies: SendTemplateBroadcastDependencies & DryRunDependencies) => {
    if (parseRequest(broadcastQuerySchema, request.query, 'query').dryRun === 'true') {
      // Nothing is written, so an Idempotency-Key has nothing to guard: it is not read (a later real send with it is a fresh accept).
      const { request: built, screened } = parseDryRunRequest(request.body);
      const result = await dryRunBroadcast(dependencies, request.caller, built, screened);
      return {
        statusCode: 200,
        body: broadcastEnvelope(200, `Dry run: ${result.totals.sendable} of ${result.totals.received} recipients sendable; nothing was sent`, result),
      };
    }
    const body = parseTemplateBroadcastRequest(request.body);
    const idempotencyKey = idempotencyKeyOf(request.headers);
    const result = await acceptBroadcast(dependencies, request.caller, body, { idempotencyKey, inProgressTimeoutMs: IN_PROGRESS_TIMEOUT_MS });
    // A retry answered from the key's first answer says so (nothing was sent again); the body is the first answer's.
    const replayed: Record<string, string> = result.replayed ? { 'Idempotent-Replayed': 'true' } : {};
    if (result.kind === 'queued') {
      // The contract's `data: {}` stays; the job's id travels in a header (absent on answers stored before it did).
      const headers = { ...replayed, ...(result.jobId === undefined ? {} : jobIdHeader(result.jobId)) };
      return { statusCode: 200, headers, body: broadcastEnvelope(200, queuedMessage(result.recipients), {}) };
    }
    const { kind: _kind, replayed: _replayed, ...job } = result;
    const message = 'scheduledAt' in job ? `Broadcast scheduled for ${job.scheduledAt}` : 'Broadcast accepted; processing in chunks of 1000 recipients';
    return { statusCode: 202, headers: { ...replayed, ...jobIdHeader(job.jobId) }, body: broadcastEnvelope(202, message, job) };
  },
);
