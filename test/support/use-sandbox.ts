/**
 * The Cloud API sandbox in a test file: `useSandbox()` starts one on a free port before the file's
 * (or the describe block's) tests and closes it after them, and hands back a small HTTP client
 * that is usable as soon as the hooks have run. Requests carry the first account's token and go
 * to its first number unless told otherwise.
 */
import { demoSandboxAccounts } from '../../local/demo-tenant';
import { startCloudApiSandbox, type CloudApiSandbox, type SandboxOptions } from '../../sandbox/cloud-api-sandbox';

export interface UseSandboxOptions extends SandboxOptions {
  /** Runs before every test in scope, e.g. `(sandbox) => sandbox.reset()` or registering fixtures again. */
  beforeEachTest?: (sandbox: CloudApiSandbox) => void;
}

export interface RequestOptions {
  /** Bearer token; default the first account's; null sends none. */
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

interface ClientDefaults {
  token: string;
  phoneNumberId: string;
}

export class SandboxClient {
  #sandbox: CloudApiSandbox | undefined;

  constructor(private readonly defaults: ClientDefaults) {}

  /** The running sandbox; only inside tests and hooks that run after `useSandbox`'s beforeAll. */
  get sandbox(): CloudApiSandbox {
    if (!this.#sandbox) throw new Error('The sandbox is not running: use the client inside tests or hooks, not at module level');
    return this.#sandbox;
  }

  attach(sandbox: CloudApiSandbox): this {
    this.#sandbox = sandbox;
    return this;
  }

  async close(): Promise<void> {
    const sandbox = this.#sandbox;
    this.#sandbox = undefined;
    await sandbox?.close();
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? this.defaults.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | Buffer | FormData | undefined = options.rawBody ?? options.form;
    if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined && options.form === undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const response = await fetch(path.startsWith('http') ? path : `${this.sandbox.url}${path}`, { method, headers, body: payload, signal: options.signal });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
  }

  /** GET a download URL the sandbox handed out; the raw bytes. */
  async download(url: string, token: string | null = this.defaults.token): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const response = await fetch(url, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  graph(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    return this.request(method, `/v25.0${path}`, options);
  }

  send(body: unknown, options: { token?: string | null; phoneId?: string; signal?: AbortSignal } = {}): Promise<HttpResult> {
    return this.graph('POST', `/${options.phoneId ?? this.defaults.phoneNumberId}/messages`, { token: options.token, body, signal: options.signal });
  }

  sandboxApi(method: string, path: string, body?: unknown): Promise<HttpResult> {
    return this.request(method, `/_sandbox${path}`, { token: null, body });
  }
}

function clientFor(options: SandboxOptions): { client: SandboxClient; sandboxOptions: SandboxOptions } {
  const accounts = options.accounts ?? demoSandboxAccounts();
  const first = accounts[0];
  const client = new SandboxClient({ token: first?.accessToken ?? '', phoneNumberId: first?.phoneNumbers[0]?.id ?? '' });
  return { client, sandboxOptions: { port: 0, ...options, accounts } };
}

/** A sandbox started now (for a test that needs one of its own); the caller closes it with `client.close()`. */
export async function startSandboxClient(options: SandboxOptions = {}): Promise<SandboxClient> {
  const { client, sandboxOptions } = clientFor(options);
  return client.attach(await startCloudApiSandbox(sandboxOptions));
}

/**
 * Registers beforeAll/afterAll (and beforeEach with `beforeEachTest`) in the current scope.
 * Accounts default to the demo tenant's (local/demo-tenant.ts).
 */
export function useSandbox(options: UseSandboxOptions = {}): SandboxClient {
  const { beforeEachTest, ...rest } = options;
  const { client, sandboxOptions } = clientFor(rest);
  beforeAll(async () => {
    client.attach(await startCloudApiSandbox(sandboxOptions));
  });
  afterAll(() => client.close());
  if (beforeEachTest) beforeEach(() => beforeEachTest(client.sandbox));
  return client;
}
