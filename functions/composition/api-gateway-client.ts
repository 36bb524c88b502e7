/** The API Gateway client (the only composition module importing the API Gateway SDK client). */
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { CompositionContext } from './composition-context';

const controlPlaneTimeouts = { connectionTimeout: 2_000, requestTimeout: 5_000, throwOnRequestTimeout: true } as const;

export function apiGatewayClient(context: CompositionContext): () => APIGatewayClient {
  const { region, endpoints } = context.config;
  return () =>
    context.client(
      `apigateway ${region} ${endpoints.apiGateway ?? ''}`,
      () => new APIGatewayClient({ region, endpoint: endpoints.apiGateway, requestHandler: controlPlaneTimeouts }),
    );
}
