/** The EventBridge Scheduler client (the only composition module importing the Scheduler SDK client). */
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { CompositionContext } from './composition-context';

const controlPlaneTimeouts = { connectionTimeout: 2_000, requestTimeout: 5_000, throwOnRequestTimeout: true } as const;

export function schedulerClient(context: CompositionContext): () => SchedulerClient {
  const { region, endpoints } = context.config;
  return () =>
    context.client(
      `scheduler ${region} ${endpoints.scheduler ?? ''}`,
      () => new SchedulerClient({ region, endpoint: endpoints.scheduler, maxAttempts: 3, requestHandler: controlPlaneTimeouts }),
    );
}
