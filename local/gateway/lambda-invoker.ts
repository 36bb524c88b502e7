/**
 * Invokes a route's Lambda handler as API Gateway's proxy integration does: one handler load per
 * group (a failed load, Lambda's init error, is retried on the next request), a Lambda context
 * with the function's deadline, and whichever of the function's and the integration's timeouts
 * comes first.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { EndpointGroup } from '../../runtime-contract/route-manifest';
import { localLambdaContext } from '../lambda-context';
import type { CompiledRoute } from './route-table';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export type InvocationOutcome =
  | { kind: 'result'; value: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'function-timeout' }
  | { kind: 'integration-timeout' };

export class LambdaInvoker {
  private readonly handlers = new Map<EndpointGroup, ProxyHandler>();
  private readonly loading = new Map<EndpointGroup, Promise<ProxyHandler>>();

  constructor(
    private readonly loadHandler: (group: EndpointGroup) => Promise<ProxyHandler>,
    private readonly integrationTimeoutMs: number,
    private readonly region: string,
  ) {}

  /**
   * The outcome of one invocation; never rejects.
   *
   * @example
   * const outcome = await invoker.invoke(compiled, event);
   * if (outcome.kind === 'integration-timeout') sendJson(res, 504, TIMED_OUT, requestId, 'InternalServerErrorException');
   */
  invoke(compiled: CompiledRoute, event: APIGatewayProxyEvent): Promise<InvocationOutcome> {
    const fnTimeout = compiled.functionTimeoutMs;
    // Lambda's own timeout ends the invocation with an error (API Gateway answers 502); when the
    // integration's 29 s come first, API Gateway answers 504.
    const lambdaTimesOutFirst = fnTimeout < this.integrationTimeoutMs;
    const deadline = Date.now() + fnTimeout;
    const context = localLambdaContext({ functionName: compiled.functionName, region: this.region, memoryLimitInMB: compiled.memoryLimitInMB, deadline });
    return new Promise<InvocationOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: InvocationOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const timer = setTimeout(
        () => settle({ kind: lambdaTimesOutFirst ? 'function-timeout' : 'integration-timeout' }),
        Math.min(fnTimeout, this.integrationTimeoutMs),
      );
      this.run(compiled.route.group, event, context).then(
        (value) => settle({ kind: 'result', value }),
        (error: unknown) => settle({ kind: 'error', error }),
      );
    });
  }

  private async run(group: EndpointGroup, event: APIGatewayProxyEvent, context: Context): Promise<unknown> {
    const handlerOrPromise = this.handlerOf(group);
    const handler = typeof handlerOrPromise === 'function' ? handlerOrPromise : await handlerOrPromise;
    return handler(event, context);
  }

  /** The loaded handler, or the one load in progress (a loaded handler is called without an extra await). */
  private handlerOf(group: EndpointGroup): ProxyHandler | Promise<ProxyHandler> {
    const ready = this.handlers.get(group);
    if (ready) return ready;
    let pending = this.loading.get(group);
    if (!pending) {
      pending = this.loadHandler(group).then(
        (handler) => {
          if (typeof handler !== 'function') throw new TypeError(`handler of ${group} is not a function`);
          this.handlers.set(group, handler);
          this.loading.delete(group);
          return handler;
        },
        (error: unknown) => {
          this.loading.delete(group);
          throw error;
        },
      );
      this.loading.set(group, pending);
    }
    return pending;
  }
}
