/** The SQS client (the only composition module importing the SQS SDK client). */
import { SQSClient } from '@aws-sdk/client-sqs';
import type { CompositionContext } from './composition-context';

export function sqsClient(context: CompositionContext): () => SQSClient {
  const { region, endpoints } = context.config;
  return () => context.client(`sqs ${region} ${endpoints.sqs ?? ''}`, () => new SQSClient({ region, endpoint: endpoints.sqs }));
}
