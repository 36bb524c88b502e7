/**
 * Runs one deployed function: its bundled asset in the local runtime's function host
 * (local/function-host.ts: a worker thread whose whole `process.env` is the environment given
 * here, the template's variables plus what Lambda itself sets; the Timeout enforced by
 * terminating the worker). One environment per function keeps the run light on a small machine.
 */
import { FunctionHost as WorkerFunctionHost } from '../../../local/function-host';
import { localAccount, localRegion } from './cloud-assembly';
import type { DeployedFunction } from './deployed-model';

export { FunctionInvocationError } from '../../../local/function-host';

export class FunctionHost extends WorkerFunctionHost {
  constructor(
    readonly fn: DeployedFunction,
    /** The function's whole environment. */
    readonly environment: Record<string, string>,
  ) {
    super({
      name: fn.name,
      module: { kind: 'bundle', assetDirectory: fn.assetDirectory, handler: fn.handler },
      environment,
      timeoutSeconds: fn.timeoutSeconds,
      memoryMb: fn.memoryMb,
      captureLogs: true,
      context: (requestId, deadline) => ({
        functionName: fn.physicalName,
        functionVersion: '$LATEST',
        invokedFunctionArn: `arn:aws:lambda:${localRegion}:${localAccount}:function:${fn.physicalName}`,
        memoryLimitInMB: String(fn.memoryMb),
        awsRequestId: requestId,
        logGroupName: `/aws/lambda/${fn.physicalName}`,
        logStreamName: `local/[$LATEST]${requestId.replace(/-/g, '')}`,
        deadline,
      }),
    });
  }

  /** Lambda's reserved variables, as the service sets them next to the function's own. */
  static lambdaVariables(fn: DeployedFunction): Record<string, string> {
    return {
      AWS_REGION: localRegion,
      AWS_DEFAULT_REGION: localRegion,
      AWS_LAMBDA_FUNCTION_NAME: fn.physicalName,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.physicalName}`,
      LAMBDA_TASK_ROOT: fn.assetDirectory,
      _HANDLER: fn.handler,
      TZ: ':UTC',
      // As Lambda sets them when active tracing is on; segments go to a local port nobody reads.
      AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
      AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:2000',
    };
  }
}
