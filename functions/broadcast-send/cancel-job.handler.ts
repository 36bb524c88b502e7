import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { cancelJob as cancel } from '../../shared/broadcast/cancel-job';
import { isJobIdShape } from '../../shared/broadcast/job-fan-out';
import { JobNotFoundError } from '../../shared/broadcast/errors';
import type { JobCancellationPorts } from './broadcast-send.composition';

export const cancelJob = httpOperation('broadcast-api-key', async (request, { broadcasts, clock, unconfirmedAfterMs, scheduling }: JobCancellationPorts) => {
  const jobId = request.pathParameters.jobId ?? '';
  if (!isJobIdShape(jobId)) throw new JobNotFoundError(jobId);
  const job = await cancel(broadcasts, request.caller, jobId, { now: clock.now(), unconfirmedAfterMs }, scheduling);
  return { statusCode: 200, body: broadcastEnvelope(200, `Job is ${job.status}`, job) };
});
