import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { getJobStatus as readJobStatus } from '../../shared/broadcast/get-job-status';
import { isJobIdShape } from '../../shared/broadcast/job-fan-out';
import { JobNotFoundError } from '../../shared/broadcast/errors';
import type { BroadcastStatusPorts } from './broadcast-status.composition';

export const getJobStatus = httpOperation('broadcast-api-key', async (request, { broadcasts, clock, unconfirmedAfterMs, rateCards }: BroadcastStatusPorts) => {
  const jobId = request.pathParameters.jobId ?? '';
  if (!isJobIdShape(jobId)) throw new JobNotFoundError(jobId);
  const job = await readJobStatus(broadcasts, request.caller, jobId, { now: clock.now(), unconfirmedAfterMs }, rateCards);
  return { statusCode: 200, body: broadcastEnvelope(200, `Job is ${job.status}`, job) };
});
