import { randomBytes, randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** The account id every local ARN carries (no AWS account behind the local runtime). */
export const LOCAL_ACCOUNT_ID = '000000000000';

const pad2 = (value: number): string => String(value).padStart(2, '0');

/**
 * The Lambda context of one local invocation, as Lambda builds it: what handlers, Powertools'
 * `injectLambdaContext` and the chunk worker's time budget (`getRemainingTimeInMillis`) read.
 */
export function localLambdaContext(options: { functionName: string; region: string; memoryLimitInMB: string; deadline: number }): Context {
  const now = new Date();
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: options.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${options.region}:${LOCAL_ACCOUNT_ID}:function:${options.functionName}`,
    memoryLimitInMB: options.memoryLimitInMB,
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${options.functionName}`,
    logStreamName: `${now.getUTCFullYear()}/${pad2(now.getUTCMonth() + 1)}/${pad2(now.getUTCDate())}/[$LATEST]${randomBytes(16).toString('hex')}`,
    getRemainingTimeInMillis: () => Math.max(0, options.deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
