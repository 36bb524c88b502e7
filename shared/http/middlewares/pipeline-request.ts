/**
 * Types shared by the pipeline's middlewares. Per-request state lives on middy's
 * `request.internal` (fresh for every invocation).
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { RouteDefinition } from '../../../runtime-contract/route-manifest';
import type { AuthenticatedCaller, HttpPipelineDependencies, HttpRequest } from '../http-operation';

export interface PipelineState extends Record<string, unknown> {
  startedAt?: number;
  route?: RouteDefinition;
  request?: HttpRequest;
  dependencies?: HttpPipelineDependencies;
  /** Started before the body is parsed, settled after it (see authenticate.middleware.ts). */
  authentication?: Promise<AuthenticatedCaller>;
}

/** The handler receives the finished request through the context (middy's way to hand state to a handler). */
export interface PipelineContext extends Context {
  httpPipeline?: { request: HttpRequest; dependencies: unknown };
}

export type PipelineRequest = middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, PipelineContext, PipelineState>;
export type PipelineMiddleware = middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, PipelineContext, PipelineState>;

/** State a middleware needs from an earlier one; a missing piece is a wiring mistake, not a client error. */
export function stateOf<Key extends keyof PipelineState>(request: PipelineRequest, key: Key): NonNullable<PipelineState[Key]> {
  const value = request.internal[key];
  if (value === undefined) throw new Error(`HTTP pipeline: ${String(key)} is not set; check the middleware order`);
  return value as NonNullable<PipelineState[Key]>;
}
