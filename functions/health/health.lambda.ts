import { parseHealthConfig, type Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import { health } from './health.handler';

/** No composition: health must answer even when every store is down. */
export const createHandler = (env: Environment) =>
  createGroupHandler({
    group: 'health',
    operations: { health: health({ serviceName: parseHealthConfig(env).serviceName, version: '2.0.0', now: () => new Date() }) },
  });

export const handler = createHandler(process.env);
