/**
 * What the local runtime's functions talk to: in `embedded` mode dynalite, fauxqs (in this thread,
 * or in a thread of their own with `threads` isolation) and the Cloud API sandbox; in `external`
 * mode whatever endpoints the environment names. The tables and queues of the definitions are
 * created on boot (embedded, or LOCAL_CREATE_RESOURCES=1) and named in the environment.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { deadLetterEnvVarOf, queues, tables, type QueueName } from '../runtime-contract/resource-definitions';
import { startCloudApiSandbox, type CloudApiSandbox, type SandboxOptions } from '../sandbox/cloud-api-sandbox';
import { generateLocalTokenKey } from '../shared/adapters/crypto/local-aes-token-cipher';
import { emulatorCredentials, emulatorRegion, ensureQueues, ensureTables, startDynalite, startFauxqsEmulator } from './emulators';
import { startEmulatorThread, type EmulatorThread } from './emulator-thread';
import { listeningOn } from './errors';

/** Clean-ups in the order of start; run in reverse. */
export type Stops = Array<() => Promise<void>>;

export interface BackendOptions {
  backend: 'embedded' | 'external';
  isolation: 'inline' | 'threads';
  dataDirectory: string;
  persist: boolean;
  sandbox?: SandboxOptions;
  sandboxPort?: number;
}

export interface Backends {
  /** Region, credentials, endpoints, token key, Graph API base URL, table and queue names. */
  environment: Record<string, string>;
  region: string;
  dynamodb: DynamoDBClient;
  sqs: SQSClient;
  sandbox?: CloudApiSandbox;
  emulatorThread?: EmulatorThread;
}

/**
 * Starts the backends; each pushes its clean-up onto `stops`.
 *
 * @example
 * const stops: Stops = [];
 * const backends = await startBackends({ backend: 'embedded', isolation: 'inline', dataDirectory: '.local', persist: false }, stops);
 */
export async function startBackends(options: BackendOptions, stops: Stops): Promise<Backends> {
  const environment: Record<string, string> = {};
  let dynamoEndpoint = process.env.DYNAMODB_ENDPOINT;
  let sqsEndpoint = process.env.SQS_ENDPOINT;
  let sandbox: CloudApiSandbox | undefined;
  let emulatorThread: EmulatorThread | undefined;
  if (options.backend === 'embedded') {
    const emulators = await startEmulators(options, stops);
    ({ dynamoEndpoint, sqsEndpoint, emulatorThread } = emulators);
    Object.assign(environment, {
      AWS_REGION: emulatorRegion,
      AWS_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
      DYNAMODB_ENDPOINT: dynamoEndpoint,
      SQS_ENDPOINT: sqsEndpoint,
      LOCAL_TOKEN_KEY: localTokenKey(options.dataDirectory, options.persist),
    });
    const sandboxPort = options.sandboxPort ?? 0;
    const started = await listeningOn(sandboxPort, 'SANDBOX_PORT', 'the Cloud API sandbox', () =>
      startCloudApiSandbox({ port: sandboxPort, ...options.sandbox }),
    );
    sandbox = started;
    stops.push(() => started.close());
    environment.GRAPH_API_BASE_URL = started.url;
  }

  const region = environment.AWS_REGION ?? process.env.AWS_REGION ?? emulatorRegion;
  const clientSettings = options.backend === 'embedded' ? { region, credentials: emulatorCredentials } : { region };
  const dynamodb = new DynamoDBClient({ ...clientSettings, endpoint: dynamoEndpoint });
  const sqs = new SQSClient({ ...clientSettings, endpoint: sqsEndpoint });
  stops.push(async () => {
    dynamodb.destroy();
    sqs.destroy();
  });
  if (options.backend === 'embedded' || process.env.LOCAL_CREATE_RESOURCES === '1') Object.assign(environment, await createResources(dynamodb, sqs));
  return { environment, region, dynamodb, sqs, sandbox, emulatorThread };
}

/** dynalite and fauxqs, in this thread or (threads isolation) in a thread of their own. */
async function startEmulators(
  options: BackendOptions,
  stops: Stops,
): Promise<{ dynamoEndpoint: string; sqsEndpoint: string; emulatorThread?: EmulatorThread }> {
  const dynamoDataDirectory = options.persist ? join(options.dataDirectory, 'dynamodb') : undefined;
  if (options.isolation === 'threads') {
    const emulatorThread = await startEmulatorThread({ dynamoDataDirectory });
    stops.push(emulatorThread.stop);
    return { dynamoEndpoint: emulatorThread.dynamoEndpoint, sqsEndpoint: emulatorThread.sqsEndpoint, emulatorThread };
  }
  const dynalite = await startDynalite({ dataDirectory: dynamoDataDirectory });
  stops.push(dynalite.stop);
  const fauxqs = await startFauxqsEmulator({});
  stops.push(fauxqs.stop);
  return { dynamoEndpoint: dynalite.endpoint, sqsEndpoint: fauxqs.endpoint };
}

/** The definitions' tables and queues (with their dead-letter queues), named by their variables. */
async function createResources(dynamodb: DynamoDBClient, sqs: SQSClient): Promise<Record<string, string>> {
  const environment: Record<string, string> = {};
  const tableNames = await ensureTables(dynamodb);
  for (const table of Object.values(tables)) environment[table.envVar] = tableNames[table.name];
  const queueUrls = await ensureQueues(sqs);
  for (const queue of Object.values(queues)) environment[queue.envVar] = queueUrls[queue.name].url;
  // Dead-letter queues: replays (npm run admin -- replay-meta-events), the customer-events dispatcher's give-ups, and chunk-dead-letters' source.
  for (const name of Object.keys(queues) as QueueName[]) environment[deadLetterEnvVarOf(name)] = queueUrls[name].deadLetterUrl;
  return environment;
}

/** The local stand-in for the KMS token key: kept on disk with persisted data, else made anew. */
function localTokenKey(dataDirectory: string, persist: boolean): string {
  if (!persist) return generateLocalTokenKey();
  const file = join(dataDirectory, 'token-encryption.key');
  if (!existsSync(file)) writeFileSync(file, generateLocalTokenKey(), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}
