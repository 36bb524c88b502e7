/**
 * A local stand-in for Meta's WhatsApp Business Cloud API (Graph API) on bare `node:http`.
 *
 * Graph routes live under `/v{major}.{minor}/` (graph-api.ts); the sandbox's own inspection and
 * fault-injection endpoints live under `/_sandbox/` (control-api.ts). This module only wires
 * them to the server and owns the two things that need timers: added latency (`latencyMs` before
 * a request is handled, the `latency` distribution between handling and answer) and requests that
 * are deliberately never answered.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcceptedMessageLog } from './accepted-message-log';
import { ControlApi } from './control-api';
import { GraphApi, type GraphOutcome } from './graph-api';
import { invalidParameter, unknownError } from './graph-errors';
import { MAX_BODY_BYTES, readBody, sendBytes, sendEmpty, sendJson } from './http-io';
import { MessageEventLog } from './message-events';
import { MessageIdGenerator } from './message-ids';
import { FLOW_JSON_MAX_BYTES } from './routes/flows';
import { MEDIA_UPLOAD_MAX_BYTES } from './routes/media';
import { SandboxControl } from './sandbox-control';
import { SandboxRequestError } from './sandbox-request-error';
import { SandboxState } from './sandbox-state';
import { clearStandby } from './thread-standby';
import type { CloudApiSandbox, SandboxOptions, TemplateStatus } from './sandbox-types';
import { UrlSigner } from './signed-urls';
import { ThroughputLimiter } from './throughput-limiter';
import { UserDirectory } from './user-directory';
import { WebhookEmitter } from './webhook-emitter';

export type {
  AcceptedMessage,
  CloudApiSandbox,
  MarketingMessagesOnboardingStatus,
  RecipientErrorRule,
  RecipientTimeoutRule,
  SandboxBusinessAccount,
  SandboxControlPatch,
  SandboxControlSettings,
  SandboxOptions,
  SandboxPhoneNumber,
  SandboxTemplate,
  SandboxWebhooks,
  TemplateCategory,
  TemplateStatus,
} from './sandbox-types';
export type { InboundMessageInput, TemplateStatusInput } from './webhook-emitter';
export type { WebhookDelivery, WebhookStats } from './webhook-poster';
export type { WebhookSettingsPatch, WebhookSettingsView } from './webhook-settings';
export { hubSignature } from './webhook-payloads';
/** Thrown by registerBusinessAccount / configure / setTemplateStatus for invalid input. */
export { SandboxRequestError };

const DEFAULT_PORT = 4010;
const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_THROUGHPUT_PER_SECOND = 80;
const DEFAULT_MIGRATION_PAGE_SIZE = 5;

/**
 * Uploads may be far larger than any JSON call: media up to Meta's 100 MB document limit, flow
 * JSON up to 10 MB. Everything else keeps the small default, so a runaway client is cut off early.
 */
function bodyLimitFor(pathname: string): number {
  if (/\/media\/?$/.test(pathname)) return MEDIA_UPLOAD_MAX_BYTES;
  if (/\/(assets|flows)\/?$/.test(pathname)) return FLOW_JSON_MAX_BYTES + 1024 * 1024;
  return MAX_BODY_BYTES;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function startCloudApiSandbox(options: SandboxOptions = {}): Promise<CloudApiSandbox> {
  const host = options.host ?? DEFAULT_HOST;
  const throughputPerSecond = options.throughputPerSecond ?? DEFAULT_THROUGHPUT_PER_SECOND;
  if (!Number.isInteger(throughputPerSecond) || throughputPerSecond < 0) {
    throw new SandboxRequestError(400, 'throughputPerSecond must be an integer >= 0');
  }
  const migrationPageSize = options.templateMigrationPageSize ?? DEFAULT_MIGRATION_PAGE_SIZE;
  if (!Number.isInteger(migrationPageSize) || migrationPageSize < 1) {
    throw new SandboxRequestError(400, 'templateMigrationPageSize must be an integer >= 1');
  }
  const state = new SandboxState(options.now);
  const control = new SandboxControl(throughputPerSecond);
  const limiter = new ThroughputLimiter();
  const log = new AcceptedMessageLog();
  const events = new MessageEventLog();
  const messageIds = new MessageIdGenerator();
  const users = new UserDirectory();
  const webhooks = new WebhookEmitter({ state, messageIds, users }, options.webhooks, options.log);
  for (const account of options.accounts ?? []) state.registerAccount(account);

  const reset = () => {
    log.clear();
    events.clear();
    control.resetToDefaults();
    limiter.clear();
    state.clearExpiredTokens();
    state.resetMarketingMessages();
    state.clearTemplatePacing();
    clearStandby(state);
    users.clear();
    webhooks.reset();
  };
  const graph = new GraphApi({
    state,
    control,
    limiter,
    log,
    events,
    messageIds,
    signer: new UrlSigner(),
    migrationPageSize,
    webhooks,
    users,
  });
  const controlApi = new ControlApi({ state, control, log, events, webhooks, users, reset });

  /** Requests being held unanswered, so close() can drop them instead of waiting a minute. */
  const held = new Map<ServerResponse, NodeJS.Timeout>();
  const hold = (response: ServerResponse) => {
    const timer = setTimeout(() => {
      held.delete(response);
      response.destroy();
    }, control.holdMs);
    held.set(response, timer);
    response.on('close', () => {
      clearTimeout(timer);
      held.delete(response);
    });
  };

  const answerGraph = (response: ServerResponse, outcome: GraphOutcome) => {
    if (outcome.kind === 'hold') hold(response);
    else if (outcome.kind === 'bytes') sendBytes(response, outcome.status, outcome.body, outcome.headers);
    else sendJson(response, outcome.status, outcome.body, outcome.headers);
  };

  const handleGraph = async (request: IncomingMessage, response: ServerResponse, url: URL, body: Buffer | null) => {
    if (control.shouldTimeOut()) return hold(response);
    const latency = control.nextLatencyMs();
    if (latency > 0) await delay(latency);
    if (body === null) {
      const error = invalidParameter(`Request body exceeds ${bodyLimitFor(url.pathname)} bytes`);
      return sendJson(response, error.httpStatus, error.toBody());
    }
    const outcome = await graph.handle({
      method: request.method ?? 'GET',
      url,
      authorization: request.headers.authorization,
      body,
      ...(request.headers['content-type'] === undefined ? {} : { contentType: request.headers['content-type'] }),
    });
    // The `latency` distribution is Meta's processing time: the request is decided on arrival
    // (throughput counted, message logged), its answer leaves after the draw.
    const answerDelay = outcome.kind === 'hold' ? 0 : control.nextAnswerDelayMs();
    if (answerDelay > 0) await new Promise((resolve) => setTimeout(resolve, answerDelay).unref());
    answerGraph(response, outcome);
  };

  const handleRequest = async (request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '/';
    const isControl = path === '/_sandbox' || path.startsWith('/_sandbox/') || path.startsWith('/_sandbox?');
    try {
      // The Host header, not the listen address, so paging links work through any alias.
      const url = new URL(path, `http://${request.headers.host ?? 'localhost'}`);
      const body = await readBody(request, isControl ? MAX_BODY_BYTES : bodyLimitFor(url.pathname));
      if (!isControl) return await handleGraph(request, response, url, body);
      if (body === null) return sendJson(response, 413, { error: { message: `body exceeds ${MAX_BODY_BYTES} bytes` } });
      const answer = await controlApi.handle(request.method ?? 'GET', url, body);
      if (answer.body === undefined) sendEmpty(response, answer.status);
      else sendJson(response, answer.status, answer.body, answer.headers);
    } catch (error) {
      if (response.headersSent) return response.destroy();
      if (isControl) {
        return sendJson(response, 500, { error: { message: error instanceof Error ? error.message : String(error) } });
      }
      const graphError = unknownError();
      sendJson(response, graphError.httpStatus, graphError.toBody());
    }
  };

  const server = createServer((request, response) => {
    void handleRequest(request, response);
  });
  // Outlive typical client keep-alive so pooled connections are not cut mid-benchmark.
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const sandboxUrl = `http://${hostForUrl(host)}:${port}`;

  return {
    url: sandboxUrl,
    port,
    registerBusinessAccount: (account) => state.registerAccount(account),
    acceptedMessages: () => log.list(),
    configure: (patch) => control.apply(patch),
    setTemplateStatus: (templateId: string, status: TemplateStatus) => {
      state.setTemplateStatus(templateId, status);
    },
    setTokenExpired: (wabaId: string, expired: boolean) => state.setTokenExpired(wabaId, expired),
    setMarketingMessagesOnboarding: (wabaId, status) => {
      state.setMarketingMessagesOnboarding(wabaId, status);
    },
    setTemplateSyncing: (templateId, syncing) => state.setTemplateSyncing(templateId, syncing),
    registerUser: (input) => users.register(input),
    setTemplatePacing: (templateId, holdMs) => {
      state.setTemplatePacing(templateId, holdMs);
    },
    webhooks: {
      configure: (patch) => {
        webhooks.configure(patch);
        return webhooks.settings.view();
      },
      settings: () => webhooks.settings.view(),
      deliveries: () => webhooks.deliveries(),
      stats: () => webhooks.stats(),
      drain: (timeoutMs) => webhooks.drain(timeoutMs),
      injectInbound: (input) => webhooks.injectInbound(input),
      changeTemplateStatus: (input) => webhooks.changeTemplateStatus(input),
      changeTemplateQuality: (input) => webhooks.templates.changeQuality(input),
      changeTemplateCategory: (input) => webhooks.templates.changeCategory(input),
    },
    reset,
    close: () =>
      new Promise<void>((resolve, reject) => {
        webhooks.close();
        for (const [response, timer] of held) {
          clearTimeout(timer);
          response.destroy();
        }
        held.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
