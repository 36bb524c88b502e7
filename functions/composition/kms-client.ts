/** The KMS client (the only composition module importing the KMS SDK client). */
import { KMSClient } from '@aws-sdk/client-kms';
import type { CompositionContext } from './composition-context';

const controlPlaneTimeouts = { connectionTimeout: 2_000, requestTimeout: 5_000, throwOnRequestTimeout: true } as const;

export function kmsClient(context: CompositionContext): () => KMSClient {
  const { region, endpoints } = context.config;
  return () =>
    context.client(
      `kms ${region} ${endpoints.kms ?? ''}`,
      () => new KMSClient({ region, endpoint: endpoints.kms, maxAttempts: 3, requestHandler: controlPlaneTimeouts }),
    );
}
