import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { listBroadcasts as readBroadcasts } from '../../shared/broadcast/list-broadcasts';
import { broadcastsQuerySchema } from '../../shared/broadcast/list-broadcasts.schema';
import type { BroadcastStatusPorts } from './broadcast-status.composition';

export const listBroadcasts = httpOperation('broadcast-api-key', async (request, { broadcasts, clock, unconfirmedAfterMs }: BroadcastStatusPorts) => {
  const query = parseRequest(broadcastsQuerySchema, request.query, 'query');
  const page = await readBroadcasts(broadcasts, request.caller, query, { now: clock.now(), unconfirmedAfterMs });
  return { statusCode: 200, body: broadcastEnvelope(200, `${page.broadcasts.length} broadcasts`, page) };
});
