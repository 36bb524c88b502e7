import { parseHealthConfig, type Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { health } from './health.handler';

/** No composition: health must answer even when every store is down. */
export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'health',
    operations: { health: health({ serviceName: parseHealthConfig(env).serviceName, version: '2.0.0', now: () => overrides?.clock?.now() ?? new Date() }) },
  });

export const handler = createHandler(process.env);
