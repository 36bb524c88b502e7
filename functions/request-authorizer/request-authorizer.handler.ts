/**
 * The REQUEST authorizer's wiring: the event's headers to the presented credentials, one use case
 * (`usageIdentifierOf`), its answer to API Gateway's policy. A refusal is the literal `Unauthorized`
 * error, which API Gateway answers with its UNAUTHORIZED gateway response (401, the surface's body);
 * any other failure (the identity provider or the store unreachable) is its AUTHORIZER_FAILURE.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { InvalidPersonTokenError } from '../../shared/people/errors';
import { usageIdentifierOf, type PresentedCredentials, type UsageIdentifier, type UsageIdentifierPorts } from '../../shared/people/usage-identifier';

/** The message API Gateway reads as "deny with 401" (any other error is an authorizer failure, 500). */
export const UNAUTHORIZED = 'Unauthorized';

const bearerToken = (authorization: string | undefined): string | undefined => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

/** A header by name, whatever its case (a REQUEST authorizer gets the headers as the client wrote them). */
function headerOf(event: APIGatewayRequestAuthorizerEvent, name: string): string | undefined {
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === name && value) return value;
  }
  return undefined;
}

/**
 * Every method of the API's stage (`arn:…:<apiId>/<stage>/*`): one policy fits any method, and
 * with caching off it is never reused for another request.
 */
export function stageWildcardOf(methodArn: string): string {
  const [apiPart, stage] = methodArn.split('/');
  return `${apiPart}/${stage}/*`;
}

function presentedCredentialsOf(event: APIGatewayRequestAuthorizerEvent): PresentedCredentials {
  return {
    apiKey: headerOf(event, 'x-api-key'),
    bearerToken: bearerToken(headerOf(event, 'authorization')),
    organizationId: headerOf(event, 'x-organization-id'),
  };
}

/** principalId and context of the Allow: never a key or a token (they reach the access log and the function). */
function callerOf(identifier: UsageIdentifier): Pick<APIGatewayAuthorizerResult, 'principalId' | 'context'> {
  if (identifier.kind === 'person')
    return { principalId: identifier.personId, context: { organizationId: identifier.organizationId, personId: identifier.personId } };
  return { principalId: identifier.kind === 'api-key' ? 'api-key' : 'person', context: {} };
}

/**
 * The authorizer's answer to one request: Allow with the usage identifier key, or `Unauthorized`.
 *
 * @example
 * const { result, kind } = await authorizeRequest(ports, event); // result: { principalId, policyDocument, usageIdentifierKey, context }
 */
export async function authorizeRequest(
  ports: UsageIdentifierPorts,
  event: APIGatewayRequestAuthorizerEvent,
): Promise<{ result: APIGatewayAuthorizerResult; kind: UsageIdentifier['kind'] }> {
  let identifier: UsageIdentifier;
  try {
    identifier = await usageIdentifierOf(ports, presentedCredentialsOf(event));
  } catch (error) {
    if (error instanceof InvalidPersonTokenError) throw new Error(UNAUTHORIZED, { cause: error });
    throw error;
  }
  const result: APIGatewayAuthorizerResult = {
    ...callerOf(identifier),
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stageWildcardOf(event.methodArn) }] },
    usageIdentifierKey: identifier.usageIdentifierKey,
  };
  return { result, kind: identifier.kind };
}
