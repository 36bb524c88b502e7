/** The Cognito user-pool client (the only composition module importing the Cognito SDK client). */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { CompositionContext } from './composition-context';

const controlPlaneTimeouts = { connectionTimeout: 2_000, requestTimeout: 5_000, throwOnRequestTimeout: true } as const;

export function cognitoClient(context: CompositionContext): () => CognitoIdentityProviderClient {
  const { region } = context.config;
  return () => context.client(`cognito-idp ${region}`, () => new CognitoIdentityProviderClient({ region, requestHandler: controlPlaneTimeouts }));
}
