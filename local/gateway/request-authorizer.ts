/**
 * The broadcast API's Lambda REQUEST authorizer, locally (docs/PEOPLE.md "On AWS"): for a keyed
 * method called without `x-api-key`, the gateway invokes the `request-authorizer` function as API
 * Gateway does (a REQUEST event, the function's context and timeout) and reads its answer: Allow
 * with a usage identifier key, the literal `Unauthorized`, a Deny, or a failure.
 */
import type { APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import type http from 'node:http';
import { LOCAL_ACCOUNT_ID, localLambdaContext } from '../lambda-context';
import { shortId } from './context-values';
import type { CompiledRoute } from './route-table';

export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent, context: Context) => Promise<unknown>;

/** What the gateway does after asking the authorizer. */
export type AuthorizerAnswer =
  | { kind: 'allowed'; usageIdentifierKey: string; authorizer: Record<string, string | number | boolean> }
  | { kind: 'refused' }
  | { kind: 'denied' }
  | { kind: 'failed' };

export interface LocalRequestAuthorizerOptions {
  /** The `request-authorizer` function's handler (the runtime's, inline or in its worker thread). */
  loadHandler: () => Promise<AuthorizerHandler>;
  region: string;
  /** The function's timeout: past it the answer is a failure, as Lambda's timeout is to API Gateway. */
  timeoutMs: number;
  memoryMb: number;
}

export class LocalRequestAuthorizer {
  constructor(private readonly options: LocalRequestAuthorizerOptions) {}

  /**
   * The authorizer's answer to one request of a keyed method.
   *
   * @example
   * const answer = await authorizer.authorize(req, compiled);
   * if (answer.kind === 'refused') sendGatewayResponse(res, surface, 'UNAUTHORIZED', context);
   */
  async authorize(req: http.IncomingMessage, compiled: CompiledRoute): Promise<AuthorizerAnswer> {
    const { region, timeoutMs, memoryMb } = this.options;
    const started = Date.now();
    const context = localLambdaContext({ functionName: 'local-request-authorizer', region, memoryLimitInMB: String(memoryMb), deadline: started + timeoutMs });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    try {
      const handler = await this.options.loadHandler();
      const result = await Promise.race([handler(this.eventOf(req, compiled), context), timedOut]);
      return result === 'timeout' ? { kind: 'failed' } : answerOf(result, Date.now() - started);
    } catch (error) {
      return lambdaErrorMessageOf(error) === 'Unauthorized' ? { kind: 'refused' } : { kind: 'failed' };
    } finally {
      clearTimeout(timer);
    }
  }

  private eventOf(req: http.IncomingMessage, compiled: CompiledRoute): APIGatewayRequestAuthorizerEvent {
    const { route, resource } = compiled;
    // The stage's API id, as route-table.ts gives it.
    const apiId = shortId(`restapi:${route.surface}`, 10);
    const requestPath = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const headers: Record<string, string> = {};
    // A REQUEST authorizer gets the headers as the client wrote them (names' case kept).
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i] as string] = req.rawHeaders[i + 1] as string;
    const pathWithinStage = requestPath.slice(requestPath.indexOf('/', 1));
    return {
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:${this.options.region}:${LOCAL_ACCOUNT_ID}:${apiId}/${stageNameOf(requestPath)}/${route.method}${pathWithinStage}`,
      resource: resource.resource,
      path: pathWithinStage,
      httpMethod: route.method,
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
      pathParameters: null,
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      stageVariables: null,
      // What the authorizer could read of the request's context; ours reads only the headers and the ARN.
      requestContext: {
        accountId: LOCAL_ACCOUNT_ID,
        apiId,
        httpMethod: route.method,
        path: requestPath,
        resourcePath: resource.resource,
        stage: stageNameOf(requestPath),
        identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1' },
      } as unknown as APIGatewayRequestAuthorizerEvent['requestContext'],
    };
  }
}

/**
 * What API Gateway reads of a failed authorizer: Lambda's `errorMessage`. A function in a worker
 * thread fails with the host's error, which keeps it as `errorMessage`; inline, the error itself.
 */
const lambdaErrorMessageOf = (error: unknown): string | undefined => {
  if (typeof (error as { errorMessage?: unknown })?.errorMessage === 'string') return (error as { errorMessage: string }).errorMessage;
  return error instanceof Error ? error.message : undefined;
};

const stageNameOf = (requestPath: string): string => requestPath.split('/')[1] ?? '';

/** An Allow needs a policy allowing the call and a key to meter it by; anything else is API Gateway's configuration error. */
function answerOf(result: unknown, latencyMs: number): AuthorizerAnswer {
  const output = result as {
    principalId?: unknown;
    policyDocument?: { Statement?: Array<{ Effect?: string }> };
    usageIdentifierKey?: unknown;
    context?: Record<string, string | number | boolean>;
  } | null;
  const effects = output?.policyDocument?.Statement?.map((statement) => statement.Effect) ?? [];
  if (effects.includes('Deny')) return { kind: 'denied' };
  if (!effects.includes('Allow') || typeof output?.principalId !== 'string' || typeof output.usageIdentifierKey !== 'string') return { kind: 'failed' };
  return {
    kind: 'allowed',
    usageIdentifierKey: output.usageIdentifierKey,
    authorizer: { ...output.context, principalId: output.principalId, integrationLatency: latencyMs },
  };
}
