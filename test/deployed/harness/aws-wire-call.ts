/**
 * What IAM sees of one AWS API request on the wire: the service (from the SigV4 credential
 * scope), the action (JSON protocols: `X-Amz-Target`; REST: method and path) and the resource
 * ARNs, built as AWS builds them (table and index ARNs, queue ARN from its URL, key ARN).
 *
 * Why the wire and not an SDK middleware: the bundles carry their own copy of the SDK
 * (`externalModules: []`), so nothing outside a bundle can reach its client classes; every
 * request of every client still goes through the endpoint the configuration names.
 */
import type { AwsRequest } from './iam-policy';
import { localAccount, localRegion } from './cloud-assembly';

export interface WireRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface AwsCall extends AwsRequest {
  service: string;
}

const header = (request: WireRequest, name: string): string => {
  const value = request.headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
};

/** `Credential=AKID/20260101/us-east-1/dynamodb/aws4_request` → `dynamodb`. */
export const signedServiceOf = (request: WireRequest): string =>
  /Credential=[^/]+\/[^/]+\/[^/]+\/([^/]+)\//.exec(header(request, 'authorization'))?.[1] ?? 'unknown';

const tableArn = (name: string): string => (name.startsWith('arn:') ? name : `arn:aws:dynamodb:${localRegion}:${localAccount}:table/${name}`);
/** `http://host/000000000000/name` → `arn:aws:sqs:<region>:000000000000:name`. */
export const queueArnOfUrl = (url: string): string => {
  const [account, name] = new URL(url).pathname.split('/').filter(Boolean) as [string, string];
  return `arn:aws:sqs:${localRegion}:${account}:${name}`;
};
const keyArn = (keyId: string): string =>
  keyId.startsWith('arn:')
    ? keyId
    : keyId.startsWith('alias/')
      ? `arn:aws:kms:${localRegion}:${localAccount}:${keyId}`
      : `arn:aws:kms:${localRegion}:${localAccount}:key/${keyId}`;

type Input = Record<string, unknown>;

/** SQS authorizes its batch APIs with the single-message action (Service Authorization Reference: no `sqs:*Batch` actions). */
const sqsActionOf = (operation: string): string => `sqs:${operation.replace(/Batch$/, '')}`;

function dynamodbResources(operation: string, input: Input): string[] {
  if (operation === 'BatchGetItem' || operation === 'BatchWriteItem') return Object.keys((input.RequestItems as Input | undefined) ?? {}).map(tableArn);
  if (typeof input.TableName !== 'string') return ['*'];
  const table = tableArn(input.TableName);
  return [typeof input.IndexName === 'string' ? `${table}/index/${input.IndexName}` : table];
}

/**
 * KMS's condition keys of a request's encryption context, as IAM sees them: `kms:EncryptionContext:<key>`
 * per pair and `kms:EncryptionContextKeys` (every key), so a grant conditioned on a purpose is checked.
 */
function encryptionContextKeys(input: Input): Record<string, string | string[]> {
  const context = (input.EncryptionContext ?? {}) as Record<string, string>;
  const keys: Record<string, string | string[]> = Object.fromEntries(Object.entries(context).map(([key, value]) => [`kms:EncryptionContext:${key}`, value]));
  if (Object.keys(context).length > 0) keys['kms:EncryptionContextKeys'] = Object.keys(context);
  return keys;
}

export interface ResourceTags {
  /** Tags of an API Gateway API key, for `aws:ResourceTag/*`. */
  apiKeyTags(id: string): Record<string, string> | undefined;
}

const tagContext = (prefix: 'aws:RequestTag' | 'aws:ResourceTag', tags: Record<string, string> | undefined): Record<string, string | string[]> => {
  if (!tags) return {};
  const context: Record<string, string | string[]> = Object.fromEntries(Object.entries(tags).map(([key, value]) => [`${prefix}/${key}`, value]));
  if (prefix === 'aws:RequestTag') context['aws:TagKeys'] = Object.keys(tags);
  return context;
};

/** The IAM view of a request; `undefined` when the service is not one this harness understands. */
export function awsCallOf(request: WireRequest, tags: ResourceTags): AwsCall {
  const service = signedServiceOf(request);
  const target = header(request, 'x-amz-target');
  const json = (): Input => {
    try {
      return JSON.parse(request.body.toString('utf8') || '{}') as Input;
    } catch {
      return {};
    }
  };
  if (target) {
    const operation = target.slice(target.indexOf('.') + 1);
    const input = json();
    switch (service) {
      case 'dynamodb':
        return { service, action: `dynamodb:${operation}`, resources: dynamodbResources(operation, input) };
      case 'sqs': {
        const action = sqsActionOf(operation);
        if (typeof input.QueueUrl === 'string') return { service, action, resources: [queueArnOfUrl(input.QueueUrl)] };
        if (typeof input.QueueName === 'string') return { service, action, resources: [`arn:aws:sqs:${localRegion}:${localAccount}:${input.QueueName}`] };
        return { service, action, resources: ['*'] };
      }
      case 'kms':
        return {
          service,
          action: `kms:${operation}`,
          resources: [typeof input.KeyId === 'string' ? keyArn(input.KeyId) : '*'],
          context: encryptionContextKeys(input),
        };
      default:
        return { service, action: `${service}:${operation}`, resources: ['*'] };
    }
  }
  const path = decodeURIComponent(request.url.split('?')[0]!);
  if (service === 'apigateway') {
    const context =
      request.method === 'POST' && path === '/apikeys'
        ? tagContext('aws:RequestTag', json().tags as Record<string, string> | undefined)
        : tagContext('aws:ResourceTag', /^\/apikeys\/([^/]+)$/.test(path) ? tags.apiKeyTags(path.split('/')[2]!) : undefined);
    return { service, action: `apigateway:${request.method}`, resources: [`arn:aws:apigateway:${localRegion}::${path}`], context };
  }
  if (service === 'scheduler') {
    const match = /^\/schedules\/([^/]+)$/.exec(path);
    const group = new URL(request.url, 'http://local').searchParams.get('groupName') ?? (json().GroupName as string | undefined) ?? 'default';
    const operation = { POST: 'CreateSchedule', PUT: 'UpdateSchedule', GET: 'GetSchedule', DELETE: 'DeleteSchedule' }[request.method] ?? request.method;
    return {
      service,
      action: `scheduler:${match ? operation : 'ListSchedules'}`,
      resources: [match ? `arn:aws:scheduler:${localRegion}:${localAccount}:schedule/${group}/${match[1]}` : '*'],
    };
  }
  return { service, action: `${service}:${request.method} ${path}`, resources: ['*'] };
}

/** The role a scheduler target or similar asks the service to assume: IAM checks `iam:PassRole` on it. */
export function passedRoles(call: AwsCall, request: WireRequest): string[] {
  if (call.service !== 'scheduler' || !['scheduler:CreateSchedule', 'scheduler:UpdateSchedule'].includes(call.action)) return [];
  try {
    const role = (JSON.parse(request.body.toString('utf8')) as { Target?: { RoleArn?: string } }).Target?.RoleArn;
    return role ? [role] : [];
  } catch {
    return [];
  }
}
