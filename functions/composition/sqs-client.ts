/** The SQS client (the only composition module importing the SQS SDK client). */
import { SQSClient } from '@aws-sdk/client-sqs';
import { withStackCacheReset } from '../../shared/adapters/sdk/resolved-handlers';
import { withoutSdkLogging } from '../../shared/adapters/sdk/without-sdk-logging';
import type { CompositionContext } from './composition-context';

export function sqsClient(context: CompositionContext): () => SQSClient {
  const { region, endpoints } = context.config;
  // The middleware stack resolved once per command class, not per call (docs/PERFORMANCE.md "SDK
  // per-call cost"); a middleware added later (fault classifier, bench counter) drops that cache.
  // No SDK logger: its middleware's per-call copy of input and output goes too (without-sdk-logging.ts).
  return () =>
    context.client(`sqs ${region} ${endpoints.sqs ?? ''}`, () =>
      withStackCacheReset(withoutSdkLogging(new SQSClient({ region, endpoint: endpoints.sqs, cacheMiddleware: true }))),
    );
}
