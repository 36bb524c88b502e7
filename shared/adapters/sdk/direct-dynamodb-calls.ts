/**
 * DynamoDB's item operations sent straight over HTTP, for a document client whose middleware stack
 * is as the SDK builds it (docs/PERFORMANCE.md "SDK per-call cost").
 *
 * Why: against a stub server (`npm run bench -- --only=sdk`) a Put, Update or Get through the document
 * client costs 371–404 µs of client CPU with its stack resolved once, against 180–244 µs sent here.
 * Most of the difference is the SDK's schema-driven serialisation and the middleware chain around it;
 * on the chunk worker's path (~0.35 store calls a message) it was a fifth of its CPU. The parts that
 * are easy to get wrong stay the SDK's own: marshalling (`@aws-sdk/util-dynamodb`, with the document
 * client's options), SigV4 (`@smithy/signature-v4`, with the client's credentials provider, region and
 * hash), the endpoint (as the client's configuration resolves it) and the error classes.
 *
 * What it keeps of the SDK's behaviour: the same JSON protocol requests; the 2 s limit (counted
 * from the socket, where the SDK counts from the call: a queue behind the socket limit is not a slow
 * store); one retry of a fault a retry can fix (the clients' `maxAttempts: 2`), after a jittered
 * pause; answers as the document client gives them (attribute values unmarshalled, blobs as
 * Uint8Arrays, `$metadata`); failures as the SDK's exception classes (`ConditionalCheckFailedException`
 * is `instanceof` it). What takes the SDK's path instead: operations other than the seven of
 * direct-dynamodb-operations.ts, legacy parameters, FIPS or dual-stack endpoints, per-call options, and
 * any stack with a middleware this path would skip (`directCallPlan`; resolved-handlers.ts asks it).
 */
import {
  ConditionalCheckFailedException,
  DynamoDBServiceException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ResourceNotFoundException,
  ThrottlingException,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall, type marshallOptions, type unmarshallOptions } from '@aws-sdk/util-dynamodb';
import { SignatureV4 } from '@smithy/signature-v4';
import { HttpTimeoutError } from '../http/errors';
import { keepAliveAgents, sendPlainRequest, type KeepAliveAgents } from '../http/keep-alive-http-client';
import { isStoreUnavailableError, STORE_FAULT_CLASSIFIER, storeFault } from '../dynamodb/dynamodb-errors';
import { answerOf, LEGACY_PARAMETERS, operations, requestJson, type Input, type Values } from './direct-dynamodb-operations';

/** A lib-dynamodb command: its input, and its SDK command's operation schema (`[9, namespace, name, …]`, public in the SDK's code). */
interface DirectCommand {
  input: Input;
  clientCommand: { schema: unknown };
}

/**
 * The operation a command is, read from its schema: DynamoDB's namespace and one of the names this
 * path sends, or undefined (the SDK's path) for anything else, a changed schema format included.
 */
const operationOf = (command: unknown) => {
  const schema = (command as Partial<DirectCommand> | null)?.clientCommand?.schema;
  if (!Array.isArray(schema) || schema[0] !== 9 || schema[1] !== 'com.amazonaws.dynamodb') return undefined;
  return operations.get(schema[2] as string);
};

/** What CloudTrail's data events show for these calls (the SDK's own calls carry the SDK's name). */
const USER_AGENT = 'whatsapp-broadcast-platform direct-dynamodb-calls';

/** The exceptions the platform tells apart (by class or by name); any other keeps its name on the base class. */
const EXCEPTIONS: Record<string, new (options: { message: string; $metadata: object }) => DynamoDBServiceException> = {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ThrottlingException,
  InternalServerError,
  ResourceNotFoundException,
};

const THROTTLES = new Set(['ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'ThrottlingException']);
/** The SDK's standard retry pauses: up to 100 ms, 500 ms after a throttle. */
const retryPauseMs = (error: unknown, random: () => number) => random() * (THROTTLES.has((error as Error).name) ? 500 : 100);

/**
 * The middlewares a DynamoDB client's stack holds as the SDK builds it (3.1162; the logger's may be
 * gone): what this path replaces. A middleware of any other name (a tracer, a test's fault, a bench's
 * counter) would be skipped by it, so such a stack keeps the SDK's path; so would a new SDK's new one.
 */
const SDK_BUILT_MIDDLEWARES = new Set([
  'loggerMiddleware',
  'serializerMiddleware',
  'contentLengthMiddleware',
  'getUserAgentMiddleware',
  'hostHeaderMiddleware',
  'recursionDetectionMiddleware',
  'retryMiddleware',
  'httpSigningMiddleware',
  'deserializerMiddleware',
]);

/** What a direct call must do of the stack's own: classify store faults, if its adapters installed the classifier. */
export interface DirectCallPlan {
  classifyFaults: boolean;
}

/**
 * Whether calls on a client with this middleware stack may go direct, and what of the stack they
 * keep; undefined when a middleware the path would skip is in it. Entries read `name - step` or
 * `name (a.k.a. …) - step`.
 * @example
 * directCallPlan(document.middlewareStack); // { classifyFaults: true } for the functions' clients
 */
export function directCallPlan(stack: { identify(): string[] }): DirectCallPlan | undefined {
  const names = stack.identify().map((entry) => entry.replace(/ \(a\.k\.a\. .*$| - .*$/, ''));
  if (!names.every((name) => SDK_BUILT_MIDDLEWARES.has(name) || name === STORE_FAULT_CLASSIFIER)) return undefined;
  return { classifyFaults: names.includes(STORE_FAULT_CLASSIFIER) };
}

export interface DirectCallSettings {
  /** Time for the whole answer once a socket is the request's (ms): the clients' `requestTimeout`, which the SDK counts from the call. */
  timeoutMs: number;
  /** Attempts of a call whose fault a retry can fix, as the clients' `maxAttempts`. */
  maxAttempts: number;
  /** Open connections to the endpoint at most (the SDK's request handler keeps 50). */
  maxSockets: number;
  /** The document client's marshalling options (its `translateConfig`). */
  marshallOptions?: marshallOptions;
  unmarshallOptions?: unmarshallOptions;
}

interface Endpoint {
  url: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
}

/** The DynamoDB client's resolved configuration this path reads (public in the SDK's code). */
interface ResolvedConfig {
  region(): Promise<string>;
  credentials(): Promise<{ accessKeyId: string; secretAccessKey: string; sessionToken?: string }>;
  sha256: never;
  endpoint?: () => Promise<{ protocol: string; hostname: string; port?: number; path: string }>;
  /** `AWS_ENDPOINT_URL_DYNAMODB` or `AWS_ENDPOINT_URL` (and the config file's), as the SDK reads them. */
  serviceConfiguredEndpoint?: () => Promise<string | undefined>;
  endpointProvider(parameters: { Region: string }): { url: URL };
  useFipsEndpoint(): Promise<boolean>;
  useDualstackEndpoint(): Promise<boolean>;
  systemClockOffset?: number;
}

/**
 * Sends a document client's item operations directly; `supports` says which commands it takes.
 * @example
 * const direct = new DirectDynamoDbCalls(base.config, { timeoutMs: 2_000, maxAttempts: 2, maxSockets: 50 });
 * const document = withResolvedHandlers(DynamoDBDocumentClient.from(base), direct); // sends through it
 */
export class DirectDynamoDbCalls {
  private readonly signer: SignatureV4;
  private endpoint?: Promise<Endpoint | undefined>;
  private readonly toValues: (map: Values) => Values;
  private readonly fromValues: (map: Values) => Values;
  private readonly agents: KeepAliveAgents;

  constructor(
    private readonly config: ResolvedConfig,
    private readonly settings: DirectCallSettings,
    private readonly random: () => number = Math.random,
  ) {
    this.signer = new SignatureV4({ credentials: config.credentials, region: config.region, service: 'dynamodb', sha256: config.sha256 });
    // Records, not single attribute values (lib-dynamodb sets these two on its options for its own calls).
    const marshalling = { ...settings.marshallOptions, convertTopLevelContainer: false };
    const unmarshalling = { ...settings.unmarshallOptions, convertWithoutMapWrapper: false };
    this.agents = keepAliveAgents(settings.maxSockets);
    this.toValues = (map) => marshall(map, marshalling) as Values;
    this.fromValues = (map) => unmarshall(map as never, unmarshalling);
  }

  /** Whether `command` is one of the item operations this path sends, without legacy parameters. */
  supports(command: unknown): command is DirectCommand {
    if (operationOf(command) === undefined) return false;
    const input = (command as { input: Input }).input;
    return !LEGACY_PARAMETERS.some((parameter) => input[parameter] !== undefined);
  }

  /** The endpoint this path posts to, or undefined where only the SDK's path applies (FIPS, dual-stack). */
  ready(): Promise<Endpoint | undefined> {
    this.endpoint ??= this.resolveEndpoint();
    return this.endpoint;
  }

  async send(command: DirectCommand, endpoint: Endpoint, plan: DirectCallPlan): Promise<unknown> {
    try {
      return await this.attempts(command, endpoint);
    } catch (error) {
      throw plan.classifyFaults ? storeFault(error) : error;
    }
  }

  private async attempts(command: DirectCommand, endpoint: Endpoint): Promise<unknown> {
    const operation = operationOf(command)!;
    const body = requestJson(operation.marshalIn(command.input, this.toValues));
    for (let attempt = 1; ; attempt += 1) {
      try {
        const output = await this.post(operation.name, body, endpoint, attempt);
        return operation.unmarshalOut(output, this.fromValues);
      } catch (error) {
        if (attempt >= this.settings.maxAttempts || !isStoreUnavailableError(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, retryPauseMs(error, this.random)));
      }
    }
  }

  /** Closes its connections (with the client's own, at shutdown). */
  destroy(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async post(operation: string, body: string, endpoint: Endpoint, attempt: number): Promise<Input> {
    const host = endpoint.port === undefined ? endpoint.hostname : `${endpoint.hostname}:${endpoint.port}`;
    const signed = await this.signer.sign(
      {
        method: 'POST',
        protocol: endpoint.protocol,
        hostname: endpoint.hostname,
        port: endpoint.port,
        path: endpoint.path,
        query: {},
        headers: { host, 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `DynamoDB_20120810.${operation}`, 'user-agent': USER_AGENT },
        body,
      },
      { signingDate: new Date(Date.now() + (this.config.systemClockOffset ?? 0)) },
    );
    let answer: Awaited<ReturnType<typeof sendPlainRequest>>;
    try {
      answer = await sendPlainRequest(
        { url: endpoint.url, method: 'POST', headers: signed.headers, body, timeoutMs: this.settings.timeoutMs, timeoutFrom: 'socket' },
        this.agents,
      );
    } catch (error) {
      // The SDK's name for a request that ran out of time (dynamodb-errors.ts counts it as transient).
      if (error instanceof HttpTimeoutError) throw Object.assign(new Error(error.message, { cause: error }), { name: 'TimeoutError' });
      throw error;
    }
    const $metadata = { httpStatusCode: answer.status, requestId: answer.headers['x-amzn-requestid'], attempts: attempt, totalRetryDelay: 0 };
    if (answer.status === 200) return { ...answerOf(answer.text), $metadata };
    throw exceptionOf(answer.status, answer.headers['x-amzn-errortype'], errorBodyOf(answer.text), $metadata);
  }

  /** As the SDK chooses: the client's endpoint, else one configured for the service, else its rule set's for the region. */
  private async resolveEndpoint(): Promise<Endpoint | undefined> {
    if (this.config.endpoint) {
      const { protocol, hostname, port, path } = await this.config.endpoint();
      return { url: `${protocol}//${port === undefined ? hostname : `${hostname}:${port}`}${path}`, protocol, hostname, port, path };
    }
    const configured = await this.config.serviceConfiguredEndpoint?.();
    if (configured) return endpointOf(new URL(configured));
    if ((await this.config.useFipsEndpoint()) || (await this.config.useDualstackEndpoint())) return undefined;
    return endpointOf(this.config.endpointProvider({ Region: await this.config.region() }).url);
  }
}

const endpointOf = (url: URL): Endpoint => ({
  url: url.href,
  protocol: url.protocol,
  hostname: url.hostname,
  port: url.port === '' ? undefined : Number(url.port),
  path: url.pathname,
});

/** A refusal's body, or nothing when it is not JSON (a proxy's page): the status still says whether a retry can help. */
function errorBodyOf(text: string): Input {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null ? (body as Input) : {};
  } catch {
    return {};
  }
}

/** An error answer as the SDK's JSON protocol reads it: the type after `#` (and before `:`), the message in either case. */
function exceptionOf(status: number, typeHeader: string | undefined, body: Input, $metadata: object): DynamoDBServiceException {
  const type = String(body.__type ?? typeHeader ?? 'UnknownError');
  const name = type.slice(type.lastIndexOf('#') + 1).replace(/:.*$/, '');
  const message = String(body.message ?? body.Message ?? name);
  const Exception = EXCEPTIONS[name];
  if (Exception) return new Exception({ message, $metadata });
  return new DynamoDBServiceException({ name, message, $fault: status >= 500 ? 'server' : 'client', $metadata });
}
