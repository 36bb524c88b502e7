import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolationFromEnvironment, startLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from '../../local/local-runtime';
import { recordAnswer } from './openapi-conformance';

/** Fast-paced settings for tests: short waits, a generous default pace. */
export const testEnvironment = {
  DEFAULT_MESSAGES_PER_SECOND: '1000',
  // In-process dynalite on a shared 2-core machine: fewer parallel sends keep it inside its 2 s timeout.
  WORKER_MAX_IN_FLIGHT: '16',
  // The emulators answer on the same event loop as every function and the test: on a loaded machine
  // an answer's 2 s measures the load, not a store fault (suites about faults inject their own).
  STORE_REQUEST_TIMEOUT_MS: '10000',
  WORKER_BACKOFF_BASE_MS: '5',
  WORKER_BACKOFF_MAX_MS: '50',
  WORKER_RATE_LIMIT_HOLD_MS: '50',
  TEMPLATE_CACHE_TTL_MS: '1',
};

export interface TestRuntime extends LocalRuntime {
  demo: NonNullable<LocalRuntime['demo']>;
  call(method: string, path: string, options?: { headers?: Record<string, string>; body?: unknown; rawBody?: string }): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** The whole local runtime in this process, on free ports, with in-memory state. */
export async function startTestRuntime(options: LocalRuntimeOptions = {}): Promise<TestRuntime> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-test-'));
  const runtime = await startLocalRuntime({
    port: 0,
    dataDirectory,
    persist: false,
    sandbox: { throughputPerSecond: 1000, ...options.sandbox },
    // Meta's webhooks triple the work per send; suites about something else leave them off
    // (`npm start` has them on). Delivery-status suites turn them on.
    sandboxWebhooks: false,
    // LOCAL_ISOLATION=threads runs a suite with every function in its own worker thread (docs/TESTING.md);
    // suites handing in-process overrides stay inline.
    isolation: options.overrides ? 'inline' : isolationFromEnvironment(process.env.LOCAL_ISOLATION, 'inline'),
    ...options,
    environment: { ...testEnvironment, ...options.environment },
  });
  return {
    ...runtime,
    demo: runtime.demo!,
    call: async (method, path, callOptions = {}) => {
      const response = await fetch(`${runtime.baseUrl}${path}`, {
        method,
        headers: {
          ...(callOptions.body !== undefined || callOptions.rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
          ...callOptions.headers,
        },
        body: callOptions.rawBody ?? (callOptions.body === undefined ? undefined : JSON.stringify(callOptions.body)),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      // Checked against the OpenAPI document; a violation fails the running test (openapi-conformance.setup.ts).
      recordAnswer({ method, path, status: response.status, headers: response.headers, body, rawText: text });
      return { status: response.status, headers: response.headers, body };
    },
    close: async () => {
      await runtime.stop();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** Polls until `read` returns a value `done` accepts, or fails after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${String(JSON.stringify(value)).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
