/**
 * The broadcast REST API's Lambda REQUEST authorizer (docs/PEOPLE.md "On AWS"); the local gateway
 * invokes the same handler for the same methods. Logs the outcome's kind, never a key or a token.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import type { Environment } from '../../shared/config/app-config';
import { logger } from '../../shared/observability/logger';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeRequestAuthorizer } from './request-authorizer.composition';
import { authorizeRequest, UNAUTHORIZED } from './request-authorizer.handler';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const dependencies = composeFunction('request-authorizer', env, composeRequestAuthorizer, overrides);
  return middy(async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    try {
      const { result, kind } = await authorizeRequest(dependencies(), event);
      logger.debug('Request authorized', { kind });
      return result;
    } catch (error) {
      if (error instanceof Error && error.message === UNAUTHORIZED) logger.info('Request refused: no API key and no valid sign-in of a member');
      else logger.error('Request authorizer failed', { errorName: error instanceof Error ? error.name : typeof error });
      throw error;
    }
  }).use(injectLambdaContext(logger, { resetKeys: true }));
};

export const handler = createHandler(process.env);
