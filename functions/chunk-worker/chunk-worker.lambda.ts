/** chunk-worker: the bulk lane's consumer (broadcast and campaign chunks, functions/chunk-worker/chunk-consumer.ts). */
import type { Environment } from '../../shared/config/app-config';
import type { ServiceOverrides } from '../composition/composition-context';
import { createChunkConsumerHandler } from './chunk-consumer';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createChunkConsumerHandler({ functionName: 'chunk-worker', lane: 'bulk' }, env, overrides);

export const handler = createHandler(process.env);
