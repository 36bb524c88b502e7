import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { getJobStatus as readJobStatus } from '../../shared/broadcast/get-job-status';
import { JobNotFoundError } from '../../shared/broadcast/errors';
import type { BroadcastRepository } from '../../shared/broadcast/ports';

/** Anything that is not a job id shape cannot name a job: answered as unknown, without a lookup. */
const JOB_ID = /^pub_[A-Za-z0-9_-]{1,64}$/;

export const getJobStatus = httpOperation('broadcast-api-key', async (request, { broadcasts }: { broadcasts: BroadcastRepository }) => {
  const caller = request.caller;
  const jobId = request.pathParameters.jobId ?? '';
  if (!JOB_ID.test(jobId)) throw new JobNotFoundError(jobId);
  const job = await readJobStatus(broadcasts, caller, jobId);
  return { statusCode: 200, body: broadcastEnvelope(200, `Job is ${job.status}`, job) };
});
