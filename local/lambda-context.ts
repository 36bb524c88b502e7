import { randomBytes, randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { ContextFields } from './function-host';

/** The account id every local ARN carries (no AWS account behind the local runtime). */
export const LOCAL_ACCOUNT_ID = '000000000000';

const pad2 = (value: number): string => String(value).padStart(2, '0');

/**
 * The Lambda context of one local invocation, as Lambda builds it: what handlers, Powertools'
 * `injectLambdaContext` and the chunk worker's time budget (`getRemainingTimeInMillis`) read.
 */
export function localLambdaContext(options: { functionName: string; region: string; memoryLimitInMB: string; deadline: number }): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    ...localLambdaContextFields({ ...options, awsRequestId: randomUUID() }),
    getRemainingTimeInMillis: () => Math.max(0, options.deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The plain-data part of the context (what crosses into a function's worker thread; the worker adds the methods). */
export function localLambdaContextFields(options: {
  functionName: string;
  region: string;
  memoryLimitInMB: string;
  deadline: number;
  awsRequestId: string;
}): ContextFields {
  const now = new Date();
  return {
    functionName: options.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${options.region}:${LOCAL_ACCOUNT_ID}:function:${options.functionName}`,
    memoryLimitInMB: options.memoryLimitInMB,
    awsRequestId: options.awsRequestId,
    logGroupName: `/aws/lambda/${options.functionName}`,
    logStreamName: `${now.getUTCFullYear()}/${pad2(now.getUTCMonth() + 1)}/${pad2(now.getUTCDate())}/[$LATEST]${randomBytes(16).toString('hex')}`,
    deadline: options.deadline,
  };
}
