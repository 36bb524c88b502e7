/**
 * The Lambda REQUEST authorizer of a REST API's keyed methods (docs/PEOPLE.md "On AWS"): the API
 * takes its usage-plan key from it (`apiKeySource: AUTHORIZER`), the `x-api-key` as sent or a
 * signed-in person's own key. No identity sources and no result cache: a request carries one of two
 * alternative headers, and API Gateway can only cache by identity sources that are all present.
 */
import { Duration } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { AuthorizerResponseKind } from '../../runtime-contract/route-manifest';

/**
 * The authorizer (attached to the API of the first method that uses it).
 *
 * @example
 * const authorizer = keyedMethodAuthorizer(surfaceApi, functions['request-authorizer']);
 */
export function keyedMethodAuthorizer(scope: Construct, handler: lambda.IFunction): apigateway.RequestAuthorizer {
  const authorizer = new apigateway.RequestAuthorizer(scope, 'KeyedMethodAuthorizer', {
    handler,
    identitySources: [],
    resultsCacheTtl: Duration.seconds(0),
  });
  // CDK writes the empty list as '' ; without caching the property is optional, so it is left out.
  (authorizer.node.defaultChild as apigateway.CfnAuthorizer).addPropertyDeletionOverride('IdentitySource');
  return authorizer;
}

/**
 * API Gateway's response types of each authorizer answer. A function error or timeout is reported
 * as AUTHORIZER_CONFIGURATION_ERROR by some paths and AUTHORIZER_FAILURE by others: both say the same.
 */
export const authorizerResponseTypes: Record<AuthorizerResponseKind, readonly apigateway.ResponseType[]> = {
  UNAUTHORIZED: [apigateway.ResponseType.UNAUTHORIZED],
  ACCESS_DENIED: [apigateway.ResponseType.ACCESS_DENIED],
  AUTHORIZER_FAILURE: [apigateway.ResponseType.AUTHORIZER_FAILURE, apigateway.ResponseType.AUTHORIZER_CONFIGURATION_ERROR],
};
