import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { getServices } from '../composition';
import { handleChunkRecord } from './handle-chunk-record';

/** Partial batch responses: only the records that failed go back to the queue. */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const dependencies = getServices().chunkWorker;
  // A processor holds per-batch state; one per invocation keeps concurrent local invocations apart.
  const processor = new BatchProcessor(EventType.SQS);
  return processPartialResponse(event, (record: SQSRecord) => handleChunkRecord(dependencies, record, context), processor, { context });
};
