import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { listRecipients as readRecipients, recipientsCsv } from '../../shared/broadcast/list-recipients';
import { recipientsQuerySchema } from '../../shared/broadcast/list-recipients.schema';
import { isJobIdShape } from '../../shared/broadcast/job-fan-out';
import { JobNotFoundError } from '../../shared/broadcast/errors';
import type { BroadcastStatusPorts } from './broadcast-status.composition';

export const listRecipients = httpOperation(
  'broadcast-api-key',
  async (request, { broadcasts, clock, unconfirmedAfterMs, rateCards }: BroadcastStatusPorts) => {
    const jobId = request.pathParameters.jobId ?? '';
    if (!isJobIdShape(jobId)) throw new JobNotFoundError(jobId);
    const query = parseRequest(recipientsQuerySchema, request.query, 'query');
    const reading = { now: clock.now(), unconfirmedAfterMs };
    if (query.format === 'csv') {
      // Every matching row in one answer: no limit, no cursor.
      const { recipients } = await readRecipients(broadcasts, request.caller, jobId, { status: query.status }, reading, rateCards);
      const headers = { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${jobId}-recipients.csv"` };
      return { statusCode: 200, headers, body: null, textBody: recipientsCsv(recipients) };
    }
    const page = await readRecipients(
      broadcasts,
      request.caller,
      jobId,
      { status: query.status, limit: query.limit, cursor: query.cursor },
      reading,
      rateCards,
    );
    return { statusCode: 200, body: broadcastEnvelope(200, `${page.recipients.length} recipients`, page) };
  },
);
