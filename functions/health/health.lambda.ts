import { createGroupHandler } from '../../shared/http/create-group-handler';
import { health } from './health.handler';

/** No composition root: health must answer even when every store is down. */
export const handler = createGroupHandler({
  group: 'health',
  operations: {
    health: health({
      serviceName: process.env.SERVICE_NAME ?? 'whatsapp-broadcast-platform',
      version: '2.0.0',
      now: () => new Date(),
    }),
  },
});
