/**
 * The AWS services the functions call that have no installed emulator: KMS (Encrypt, Decrypt
 * with an encryption context, JSON 1.1 protocol), API Gateway's API key management (REST:
 * CreateApiKey, CreateUsagePlanKey, GetApiKey, DeleteApiKey) and EventBridge Scheduler (REST JSON:
 * CreateSchedule, DeleteSchedule, and firing one-time schedules). Only what the code calls, on
 * the wire exactly as the SDK speaks it, so the bundles run unchanged against them.
 */
import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { localAccount, localRegion } from './cloud-assembly';

export interface HttpEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// ------------------------------------------------------------------------------------------------ KMS

export interface KmsEmulator extends HttpEmulator {
  /** Creates a symmetric key (with the given id, else a fresh one); returns its id and ARN. */
  createKey(keyId?: string): { keyId: string; arn: string };
}

const canonicalContext = (context: Record<string, string> | undefined): Buffer =>
  Buffer.from(JSON.stringify(Object.entries(context ?? {}).sort(([a], [b]) => a.localeCompare(b))));

export async function startKmsEmulator(): Promise<KmsEmulator> {
  const keys = new Map<string, Buffer>();
  const arnOf = (keyId: string): string => `arn:aws:kms:${localRegion}:${localAccount}:key/${keyId}`;
  const keyIdOf = (reference: string): string => reference.replace(/^arn:aws:kms:[^:]*:[^:]*:key\//, '');

  const answer = (res: http.ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
    res.end(JSON.stringify(body));
  };
  const fail = (res: http.ServerResponse, type: string, message: string): void => answer(res, 400, { __type: type, message });

  const server = http.createServer((req, res) => {
    void readBody(req).then((raw) => {
      const operation = String(req.headers['x-amz-target'] ?? '').replace('TrentService.', '');
      const input = JSON.parse(raw.toString('utf8') || '{}') as {
        KeyId?: string;
        Plaintext?: string;
        CiphertextBlob?: string;
        EncryptionContext?: Record<string, string>;
      };
      if (operation === 'Encrypt') {
        const keyId = keyIdOf(input.KeyId ?? '');
        const material = keys.get(keyId);
        if (!material) return fail(res, 'NotFoundException', `Key '${arnOf(keyId)}' does not exist`);
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', material, iv);
        cipher.setAAD(canonicalContext(input.EncryptionContext));
        const sealed = Buffer.concat([cipher.update(Buffer.from(input.Plaintext ?? '', 'base64')), cipher.final()]);
        const blob = Buffer.concat([Buffer.from(`${keyId}:`), iv, cipher.getAuthTag(), sealed]);
        return answer(res, 200, { CiphertextBlob: blob.toString('base64'), KeyId: arnOf(keyId), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
      }
      if (operation === 'Decrypt') {
        const blob = Buffer.from(input.CiphertextBlob ?? '', 'base64');
        const separator = blob.indexOf(':');
        const keyId = blob.subarray(0, Math.max(0, separator)).toString();
        const material = keys.get(keyId);
        if (!material || separator < 0) return fail(res, 'InvalidCiphertextException', 'The ciphertext is invalid');
        if (input.KeyId && keyIdOf(input.KeyId) !== keyId)
          return fail(res, 'IncorrectKeyException', 'The key ID in the request does not identify the key that encrypted the ciphertext');
        try {
          const body = blob.subarray(separator + 1);
          const decipher = createDecipheriv('aes-256-gcm', material, body.subarray(0, 12));
          decipher.setAAD(canonicalContext(input.EncryptionContext));
          decipher.setAuthTag(body.subarray(12, 28));
          const plaintext = Buffer.concat([decipher.update(body.subarray(28)), decipher.final()]);
          return answer(res, 200, { Plaintext: plaintext.toString('base64'), KeyId: arnOf(keyId), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
        } catch {
          return fail(res, 'InvalidCiphertextException', 'The ciphertext is invalid');
        }
      }
      return fail(res, 'UnsupportedOperationException', `The KMS emulator does not implement ${operation}`);
    });
  });
  const endpoint = await listen(server);
  return {
    endpoint,
    stop: () => close(server),
    createKey: (keyId = randomUUID()) => {
      keys.set(keyId, randomBytes(32));
      return { keyId, arn: arnOf(keyId) };
    },
  };
}

// ------------------------------------------------------------------------------------------------ API Gateway

export interface GatewayApiKey {
  id: string;
  value: string;
  name?: string;
  enabled: boolean;
  tags: Record<string, string>;
}

export interface ApiGatewayEmulator extends HttpEmulator {
  /** Registers a usage plan of the template (its id is what `Ref` gives). */
  addUsagePlan(id: string): void;
  /** Whether a key with this value exists, is enabled and belongs to one of the usage plans. */
  isKeyInPlan(value: string, usagePlanIds: readonly string[]): boolean;
  /** A stored key by id (tags feed IAM's `aws:ResourceTag/*`). */
  apiKey(id: string): GatewayApiKey | undefined;
}

export async function startApiGatewayEmulator(): Promise<ApiGatewayEmulator> {
  const keys = new Map<string, GatewayApiKey>();
  const plans = new Map<string, Set<string>>();
  let sequence = 0;

  const answer = (res: http.ServerResponse, status: number, body?: unknown, errorType?: string): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const view = (key: GatewayApiKey) => ({ id: key.id, name: key.name, value: key.value, enabled: key.enabled, tags: key.tags, createdDate: Date.now() / 1000 });

  const server = http.createServer((req, res) => {
    void readBody(req).then((raw) => {
      const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
      const input = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
      const method = req.method ?? 'GET';
      let match: RegExpMatchArray | null;
      if (method === 'POST' && path === '/apikeys') {
        if ([...keys.values()].some((key) => key.value === input.value)) return answer(res, 409, { message: 'API Key already exists' }, 'ConflictException');
        const key: GatewayApiKey = {
          id: `key${++sequence}${randomBytes(3).toString('hex')}`,
          value: String(input.value ?? randomBytes(20).toString('hex')),
          name: input.name as string | undefined,
          enabled: input.enabled === true,
          tags: (input.tags as Record<string, string> | undefined) ?? {},
        };
        keys.set(key.id, key);
        return answer(res, 201, view(key));
      }
      if ((match = path.match(/^\/apikeys\/([^/]+)$/))) {
        const key = keys.get(match[1]!);
        if (!key) return answer(res, 404, { message: 'Invalid API Key identifier specified' }, 'NotFoundException');
        if (method === 'GET') return answer(res, 200, view(key));
        if (method === 'DELETE') {
          keys.delete(key.id);
          for (const members of plans.values()) members.delete(key.id);
          return answer(res, 202);
        }
      }
      if ((match = path.match(/^\/usageplans\/([^/]+)\/keys$/)) && method === 'POST') {
        const members = plans.get(match[1]!);
        const key = keys.get(String(input.keyId));
        if (!members || !key) return answer(res, 404, { message: 'Invalid Usage Plan or API Key identifier specified' }, 'NotFoundException');
        members.add(key.id);
        return answer(res, 201, { id: key.id, type: 'API_KEY', name: key.name, value: key.value });
      }
      return answer(res, 404, { message: `The API Gateway emulator does not implement ${method} ${path}` }, 'NotFoundException');
    });
  });
  const endpoint = await listen(server);
  return {
    endpoint,
    stop: () => close(server),
    addUsagePlan: (id) => void plans.set(id, plans.get(id) ?? new Set()),
    isKeyInPlan: (value, usagePlanIds) => {
      const key = [...keys.values()].find((candidate) => candidate.value === value);
      return !!key && key.enabled && usagePlanIds.some((id) => plans.get(id)?.has(key.id));
    },
    apiKey: (id) => keys.get(id),
  };
}

// ------------------------------------------------------------------------------------------------ EventBridge Scheduler

export interface StoredSchedule {
  name: string;
  groupName: string;
  arn: string;
  /** The group's ARN (what a target role's trust policy sees as `aws:SourceArn`). */
  groupArn: string;
  scheduleExpression: string;
  /** When an `at(...)` schedule is due (epoch ms). */
  dueAt: number;
  actionAfterCompletion: 'NONE' | 'DELETE';
  target: { Arn: string; RoleArn: string; Input?: string };
  state: 'ENABLED' | 'DISABLED';
}

export interface SchedulerEmulator extends HttpEmulator {
  /** Schedules that exist now (a one-time schedule with `ActionAfterCompletion: DELETE` is gone after it fired). */
  schedules(): StoredSchedule[];
  /** Every firing so far: the schedule and whether its target was invoked without error. */
  firings(): Array<{ schedule: StoredSchedule; outcome: 'invoked' | 'failed' }>;
}

/** `at(2026-03-01T09:00:00)` in a time zone: only UTC is needed (the code always sends UTC). */
function dueTimeOf(expression: string, timezone: string | undefined): number | undefined {
  const match = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/.exec(expression);
  if (!match || (timezone !== undefined && timezone !== 'UTC')) return undefined;
  const time = Date.parse(`${match[1]}Z`);
  return Number.isNaN(time) ? undefined : time;
}

/**
 * EventBridge Scheduler (REST JSON): CreateSchedule (one-time `at(...)` schedules in UTC; a name
 * that exists in the group is a ConflictException), DeleteSchedule (ResourceNotFoundException when
 * absent), and firing: once a schedule is due, `fire` delivers it (the harness checks the target
 * role and invokes the target function); `ActionAfterCompletion: DELETE` removes it afterwards.
 * Due schedules are looked for every `tickMs`. A failed target invocation is not retried (AWS
 * retries per the RetryPolicy; the sweep rule is the platform's own net for that).
 */
export async function startSchedulerEmulator(options: { fire(schedule: StoredSchedule): Promise<void>; tickMs?: number }): Promise<SchedulerEmulator> {
  const schedules = new Map<string, StoredSchedule>();
  const firings: Array<{ schedule: StoredSchedule; outcome: 'invoked' | 'failed' }> = [];
  const keyOf = (groupName: string, name: string): string => `${groupName}/${name}`;
  const groupArnOf = (groupName: string): string => `arn:aws:scheduler:${localRegion}:${localAccount}:schedule-group/${groupName}`;

  const answer = (res: http.ServerResponse, status: number, body: unknown, errorType?: string): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
    res.end(JSON.stringify(body));
  };
  const fail = (res: http.ServerResponse, status: number, type: string, message: string): void => answer(res, status, { Message: message }, type);

  const server = http.createServer((req, res) => {
    void readBody(req).then((raw) => {
      const url = new URL(req.url ?? '/', 'http://local');
      const match = /^\/schedules\/([^/]+)$/.exec(url.pathname);
      if (!match) return fail(res, 404, 'ResourceNotFoundException', `The scheduler emulator does not implement ${req.method} ${url.pathname}`);
      const name = decodeURIComponent(match[1]!);
      const input = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
      if (req.method === 'POST') {
        const groupName = String(input.GroupName ?? 'default');
        if (schedules.has(keyOf(groupName, name))) return fail(res, 409, 'ConflictException', `Schedule ${name} already exists.`);
        const expression = String(input.ScheduleExpression ?? '');
        const dueAt = dueTimeOf(expression, input.ScheduleExpressionTimezone as string | undefined);
        if (dueAt === undefined)
          return fail(res, 400, 'ValidationException', `The scheduler emulator takes at(yyyy-mm-ddThh:mm:ss) in UTC only, got ${expression}`);
        const target = input.Target as StoredSchedule['target'] | undefined;
        if (!target?.Arn || !target.RoleArn) return fail(res, 400, 'ValidationException', 'Target.Arn and Target.RoleArn are required');
        const schedule: StoredSchedule = {
          name,
          groupName,
          arn: `arn:aws:scheduler:${localRegion}:${localAccount}:schedule/${groupName}/${name}`,
          groupArn: groupArnOf(groupName),
          scheduleExpression: expression,
          dueAt,
          actionAfterCompletion: input.ActionAfterCompletion === 'DELETE' ? 'DELETE' : 'NONE',
          target: { Arn: target.Arn, RoleArn: target.RoleArn, Input: target.Input },
          state: input.State === 'DISABLED' ? 'DISABLED' : 'ENABLED',
        };
        schedules.set(keyOf(groupName, name), schedule);
        return answer(res, 200, { ScheduleArn: schedule.arn });
      }
      if (req.method === 'DELETE') {
        const key = keyOf(url.searchParams.get('groupName') ?? 'default', name);
        if (!schedules.delete(key)) return fail(res, 404, 'ResourceNotFoundException', `Schedule ${name} does not exist.`);
        return answer(res, 200, {});
      }
      return fail(res, 400, 'ValidationException', `The scheduler emulator does not implement ${req.method} /schedules/{Name}`);
    });
  });

  const fired = new Set<StoredSchedule>();
  const tick = (): void => {
    const now = Date.now();
    for (const [key, schedule] of schedules) {
      if (schedule.state !== 'ENABLED' || schedule.dueAt > now || fired.has(schedule)) continue;
      fired.add(schedule);
      void options
        .fire(schedule)
        .then(
          () => firings.push({ schedule, outcome: 'invoked' }),
          () => firings.push({ schedule, outcome: 'failed' }),
        )
        .finally(() => {
          if (schedule.actionAfterCompletion === 'DELETE' && schedules.get(key) === schedule) schedules.delete(key);
        });
    }
  };
  const timer = setInterval(tick, options.tickMs ?? 250);
  const endpoint = await listen(server);
  return {
    endpoint,
    stop: async () => {
      clearInterval(timer);
      await close(server);
    },
    schedules: () => [...schedules.values()],
    firings: () => [...firings],
  };
}
