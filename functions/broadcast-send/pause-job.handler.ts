import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { pauseJob as pause } from '../../shared/broadcast/pause-job';
import { isJobIdShape } from '../../shared/broadcast/job-fan-out';
import { JobNotFoundError } from '../../shared/broadcast/errors';
import type { JobCancellationPorts, PauseEventsPort } from './broadcast-send.composition';

/** POST /broadcasts/{jobId}/pause: a person's pause, held until resumed (docs/BROADCAST.md "Pausing a job"). */
export const pauseJob = httpOperation(
  'broadcast-api-key',
  async (request, { broadcasts, clock, unconfirmedAfterMs, events }: JobCancellationPorts & PauseEventsPort) => {
    const jobId = request.pathParameters.jobId ?? '';
    if (!isJobIdShape(jobId)) throw new JobNotFoundError(jobId);
    const job = await pause({ broadcasts, events }, request.caller, jobId, { now: clock.now(), unconfirmedAfterMs });
    return { statusCode: 200, body: broadcastEnvelope(200, `Job is ${job.status}`, job) };
  },
);
