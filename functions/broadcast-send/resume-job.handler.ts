import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { resumeJob as resume } from '../../shared/broadcast/resume-job';
import { isJobIdShape } from '../../shared/broadcast/job-fan-out';
import { JobNotFoundError } from '../../shared/broadcast/errors';
import type { JobCancellationPorts } from './broadcast-send.composition';

export const resumeJob = httpOperation('broadcast-api-key', async (request, { broadcasts, clock, unconfirmedAfterMs }: JobCancellationPorts) => {
  const jobId = request.pathParameters.jobId ?? '';
  if (!isJobIdShape(jobId)) throw new JobNotFoundError(jobId);
  const job = await resume(broadcasts, request.caller, jobId, { now: clock.now(), unconfirmedAfterMs });
  return { statusCode: 200, body: broadcastEnvelope(200, `Job is ${job.status}`, job) };
});
