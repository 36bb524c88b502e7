/**
 * single-sender: the single-message lane's consumer (docs/SCALE.md "The single-message lane"): free-form
 * messages, one-recipient broadcasts and the earlier single sends, ten per invocation, sent
 * concurrently by the chunk worker's engine (functions/chunk-worker/chunk-consumer.ts) from their own
 * queue, never behind broadcast or campaign chunks.
 */
import type { Environment } from '../../shared/config/app-config';
import { createChunkConsumerHandler } from '../chunk-worker/chunk-consumer';
import type { ServiceOverrides } from '../composition/composition-context';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createChunkConsumerHandler({ functionName: 'single-sender', lane: 'single' }, env, overrides);

export const handler = createHandler(process.env);
