/** Shared fixtures for the Cloud API sandbox tests: two accounts and a tiny HTTP client. */
import { startCloudApiSandbox, type CloudApiSandbox, type SandboxBusinessAccount, type SandboxOptions } from '../../../sandbox/cloud-api-sandbox';

export const TOKEN = 'token-account-a';
export const OTHER_TOKEN = 'token-account-b';
export const WABA_ID = '1000001';
export const OTHER_WABA_ID = '1000002';
export const PHONE_ID = '2000001';
export const SECOND_PHONE_ID = '2000002';
export const OTHER_PHONE_ID = '2000003';
export const RECIPIENT = '15551234567';

export function accountA(): SandboxBusinessAccount {
  return {
    wabaId: WABA_ID,
    businessId: '9000001',
    name: 'Account A',
    accessToken: TOKEN,
    phoneNumbers: [
      { id: PHONE_ID, displayPhoneNumber: '15550001001', verifiedName: 'Shop A' },
      { id: SECOND_PHONE_ID, displayPhoneNumber: '447700900123', verifiedName: 'Shop A UK', qualityRating: 'YELLOW' },
    ],
    templates: [
      {
        id: '3000001',
        name: 'order_update',
        language: 'en_US',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Hi {{1}}, order {{2}} shipped.' }],
      },
      {
        id: '3000002',
        name: 'order_update',
        language: 'de',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Hallo {{1}}, Bestellung {{2}} ist unterwegs.' }],
      },
      {
        id: '3000003',
        name: 'spring_sale',
        language: 'en_US',
        category: 'MARKETING',
        status: 'PENDING',
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Sale for {{1}}' },
          { type: 'BODY', text: 'Everything is 20% off.' },
        ],
      },
      {
        id: '3000004',
        name: 'hello',
        language: 'en_US',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: 'Hello there' },
        ],
      },
    ],
  };
}

export function accountB(): SandboxBusinessAccount {
  return {
    wabaId: OTHER_WABA_ID,
    businessId: '9000002',
    name: 'Account B',
    accessToken: OTHER_TOKEN,
    phoneNumbers: [{ id: OTHER_PHONE_ID, displayPhoneNumber: '15550002002', verifiedName: 'Shop B' }],
    templates: [],
  };
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string | Buffer;
  /** Content-Type for rawBody (default application/json). */
  contentType?: string;
  /** Sent as multipart/form-data; fetch writes the boundary. */
  form?: FormData;
  signal?: AbortSignal;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  // Tests assert on shapes, so a loose type keeps them readable.
  body: any;
}

export class SandboxClient {
  constructor(readonly sandbox: CloudApiSandbox) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? TOKEN : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | Buffer | FormData | undefined = options.rawBody ?? options.form;
    if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined && options.form === undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const response = await fetch(path.startsWith('http') ? path : `${this.sandbox.url}${path}`, { method, headers, body: payload, signal: options.signal });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
  }

  /** GET a download URL the sandbox handed out; the raw bytes. */
  async download(url: string, token: string | null = TOKEN): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const response = await fetch(url, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  graph(method: string, path: string, options: Parameters<SandboxClient['request']>[2] = {}): Promise<HttpResult> {
    return this.request(method, `/v25.0${path}`, options);
  }

  send(body: unknown, options: { token?: string | null; phoneId?: string; signal?: AbortSignal } = {}): Promise<HttpResult> {
    return this.graph('POST', `/${options.phoneId ?? PHONE_ID}/messages`, { token: options.token, body, signal: options.signal });
  }

  sandboxApi(method: string, path: string, body?: unknown): Promise<HttpResult> {
    return this.request(method, `/_sandbox${path}`, { token: null, body });
  }
}

export function textMessage(to: string = RECIPIENT, text = 'hello'): Record<string, unknown> {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { body: text } };
}

export function templateMessage(name: string, code: string, bodyParams: string[], to: string = RECIPIENT): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    to,
    type: 'template',
    template: {
      name,
      language: { code },
      components: bodyParams.length === 0 ? [] : [{ type: 'body', parameters: bodyParams.map((text) => ({ type: 'text', text })) }],
    },
  };
}

/** A clock tests move by hand, for rules measured in hours and weeks. Starts mid-January 2026, UTC. */
export class TestClock {
  now = Date.UTC(2026, 0, 15, 12, 0, 0);

  advance(ms: number): void {
    this.now += ms;
  }

  get seconds(): number {
    return Math.floor(this.now / 1000);
  }
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export function expectGraphError(result: { status: number; body: any }, status: number, code: number): void {
  expect(result.status).toBe(status);
  expect(result.body.error).toMatchObject({ code, type: expect.any(String), message: expect.any(String) });
  expect(result.body.error.fbtrace_id).toMatch(/^A[\w-]{22}$/);
}

/** A multipart form as fetch sends it. */
export function uploadForm(fields: Record<string, string>, file?: { name: string; type?: string; data: Buffer | string; field?: string }): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  if (file !== undefined) {
    const data = typeof file.data === 'string' ? Buffer.from(file.data) : file.data;
    form.set(file.field ?? 'file', new Blob([data], file.type === undefined ? {} : { type: file.type }), file.name);
  }
  return form;
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<SandboxClient> {
  const sandbox = await startCloudApiSandbox({ port: 0, accounts: [accountA(), accountB()], ...options });
  return new SandboxClient(sandbox);
}
