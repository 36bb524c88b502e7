/**
 * The two AWS services the functions call that have no installed emulator: KMS (Encrypt, Decrypt
 * with an encryption context, JSON 1.1 protocol) and API Gateway's API key management (REST:
 * CreateApiKey, CreateUsagePlanKey, GetApiKey, DeleteApiKey). Only what the code calls, on the
 * wire exactly as the SDK speaks it, so the bundles run unchanged against them.
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
      const input = JSON.parse(raw.toString('utf8') || '{}') as { KeyId?: string; Plaintext?: string; CiphertextBlob?: string; EncryptionContext?: Record<string, string> };
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
        if (input.KeyId && keyIdOf(input.KeyId) !== keyId) return fail(res, 'IncorrectKeyException', 'The key ID in the request does not identify the key that encrypted the ciphertext');
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
