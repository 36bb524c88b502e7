import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Environment } from '../../shared/config/app-config';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeDeliveryEvents } from './delivery-events.composition';
import { handleDeliveryRecord } from './handle-delivery-record';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const dependencies = composeFunction('delivery-events', env, composeDeliveryEvents, overrides);
  /** Partial batch responses: only the webhook batches that failed go back to the queue. */
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, (record: SQSRecord) => handleDeliveryRecord(dependencies(), record), processor, { context });
  };
};

export const handler = createHandler(process.env);
