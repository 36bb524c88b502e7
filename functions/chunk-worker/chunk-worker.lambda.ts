import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Environment } from '../../shared/config/app-config';
import { composeFunction } from '../composition/function-composition';
import { composeChunkWorker } from './chunk-worker.composition';
import { handleChunkRecord } from './handle-chunk-record';

export const createHandler = (env: Environment) => {
  const dependencies = composeFunction('chunk-worker', env, composeChunkWorker);
  /** Partial batch responses: only the records that failed go back to the queue. */
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    // A processor holds per-batch state; one per invocation keeps concurrent local invocations apart.
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, (record: SQSRecord) => handleChunkRecord(dependencies(), record, context), processor, { context });
  };
};

export const handler = createHandler(process.env);
