/**
 * The sandbox's own unauthenticated endpoints under `/_sandbox`: inspection of accepted
 * messages, fault injection, account registration, template review, token expiry and reset.
 */
import type { AcceptedMessageLog } from './accepted-message-log';
import { pageOfAcceptedMessages } from './accepted-message-page';
import type { MessageEventLog } from './message-events';
import type { SandboxControl } from './sandbox-control';
import { SandboxRequestError } from './sandbox-request-error';
import type { SandboxState } from './sandbox-state';
import type { SandboxBusinessAccount } from './sandbox-types';
import { setStandby } from './thread-standby';
import type { UserDirectory } from './user-directory';
import type { WebhookEmitter } from './webhook-emitter';

export interface ControlResponse {
  status: number;
  /** Absent for 204. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ControlDependencies {
  state: SandboxState;
  control: SandboxControl;
  log: AcceptedMessageLog;
  events: MessageEventLog;
  webhooks: WebhookEmitter;
  users: UserDirectory;
  reset: () => void;
}

type Handler = (url: URL, body: () => unknown) => ControlResponse | Promise<ControlResponse>;

const NO_CONTENT: ControlResponse = { status: 204 };
/** How long a paced template's sends are held when the control call names no `holdMs`. */
const DEFAULT_PACING_HOLD_MS = 30_000;
/** Meta holds paced messages "usually under an hour"; a day is plenty for any test. */
const MAX_PACING_HOLD_MS = 86_400_000;

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new SandboxRequestError(400, 'request body is not valid JSON');
  }
}

/** A whole number from the query string, or the fallback when absent. */
function queryNumber(url: URL, name: string, fallback: number | undefined, max: number): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) throw new SandboxRequestError(400, `${name} must be an integer between 0 and ${max}`);
  return value;
}

function stripPlus(value: string | null): string | undefined {
  if (value === null || value === '') return undefined;
  return value.startsWith('+') ? value.slice(1) : value;
}

export class ControlApi {
  private readonly routes: Record<string, Record<string, Handler>>;

  constructor(private readonly deps: ControlDependencies) {
    const { state, control, log, webhooks, users } = deps;
    this.routes = {
      '/_sandbox/health': { GET: () => ({ status: 200, body: { status: 'ok' } }) },
      '/_sandbox/messages': {
        GET: (url) => ({
          status: 200,
          body: pageOfAcceptedMessages(
            log.list({ phoneNumberId: url.searchParams.get('phone_number_id') ?? undefined, recipient: stripPlus(url.searchParams.get('recipient')) }),
            url,
          ),
        }),
        DELETE: () => {
          // Analytics are derived from the same messages, so they go too.
          log.clear();
          deps.events.clear();
          return NO_CONTENT;
        },
      },
      '/_sandbox/control': {
        GET: () => ({ status: 200, body: control.settings() }),
        POST: (_url, body) => {
          control.apply(body());
          return { status: 200, body: control.settings() };
        },
        DELETE: () => {
          control.resetToDefaults();
          return NO_CONTENT;
        },
      },
      '/_sandbox/accounts': {
        GET: () => ({ status: 200, body: { data: state.listAccounts() } }),
        POST: (_url, body) => {
          const account = body() as SandboxBusinessAccount;
          state.registerAccount(account);
          return { status: 200, body: { wabaId: account.wabaId } };
        },
      },
      '/_sandbox/webhooks': {
        GET: () => ({ status: 200, body: webhooks.settings.view() }),
        POST: (_url, body) => {
          webhooks.configure(body());
          return { status: 200, body: webhooks.settings.view() };
        },
        DELETE: () => {
          webhooks.settings.resetToDefaults();
          return { status: 200, body: webhooks.settings.view() };
        },
      },
      '/_sandbox/webhooks/deliveries': {
        GET: (url) => ({
          status: 200,
          body: { data: webhooks.deliveries(queryNumber(url, 'limit', undefined, Number.MAX_SAFE_INTEGER)), stats: webhooks.stats() },
        }),
        DELETE: () => {
          webhooks.clearDeliveries();
          return NO_CONTENT;
        },
      },
      '/_sandbox/webhooks/drain': {
        POST: async (url) => {
          const drained = await webhooks.drain(queryNumber(url, 'timeoutMs', undefined, 600_000));
          return { status: drained ? 200 : 504, body: { drained, stats: webhooks.stats() } };
        },
      },
      '/_sandbox/webhooks/inbound': {
        POST: (_url, body) => ({ status: 200, body: webhooks.injectInbound(body()) }),
      },
      '/_sandbox/webhooks/identity-change': {
        POST: (_url, body) => ({ status: 200, body: webhooks.identities.changeNumber(body()) }),
      },
      '/_sandbox/webhooks/link-click': {
        POST: (_url, body) => ({ status: 200, body: webhooks.identities.linkClick(body()) }),
      },
      '/_sandbox/webhooks/user-preferences': {
        POST: (_url, body) => ({ status: 200, body: webhooks.identities.setPreference(body()) }),
      },
      '/_sandbox/webhooks/template-status': {
        POST: (_url, body) => ({ status: 200, body: webhooks.changeTemplateStatus(body()) }),
      },
      '/_sandbox/webhooks/template-quality': {
        POST: (_url, body) => ({ status: 200, body: webhooks.templates.changeQuality(body()) }),
      },
      '/_sandbox/webhooks/template-category': {
        POST: (_url, body) => ({ status: 200, body: webhooks.templates.changeCategory(body()) }),
      },
      '/_sandbox/users': {
        GET: () => ({ status: 200, body: { data: users.list(state.allAccounts().map((owner) => owner.account.businessId)) } }),
        POST: (_url, body) => ({ status: 200, body: users.register(body()) }),
        DELETE: () => {
          users.clear();
          return NO_CONTENT;
        },
      },
      '/_sandbox/parent-bsuid-accounts': {
        POST: (_url, body) => ({ status: 200, body: users.registerParentAccount(body()) }),
      },
      '/_sandbox/service-tier': {
        GET: () => ({ status: 200, body: { data: webhooks.serviceTier.counts() } }),
        POST: (_url, body) => ({ status: 200, body: webhooks.serviceTier.setCount(body()) }),
      },
      '/_sandbox/reset': {
        POST: () => {
          deps.reset();
          return NO_CONTENT;
        },
      },
    };
  }

  /** Routes with an id in the path: `/_sandbox/templates/{id}/status` and the like. */
  private itemRoutes(pathname: string): Record<string, Handler> | undefined {
    const item = /^\/_sandbox\/(templates|accounts|phone-numbers)\/([^/]+)\/([a-z-]+)$/.exec(pathname);
    if (item === null) return undefined;
    const id = decodeURIComponent(item[2] ?? '');
    switch (`${item[1]}/${item[3]}`) {
      case 'templates/status':
        return { POST: (_url, read) => this.setTemplateStatus(id, read()) };
      case 'templates/pacing':
        return { POST: (_url, read) => this.setTemplatePacing(id, read()), DELETE: () => this.setTemplatePacing(id, undefined) };
      case 'templates/syncing':
        return { POST: (_url, read) => this.setTemplateSyncing(id, read()), DELETE: () => this.setTemplateSyncing(id, { syncing: false }) };
      case 'accounts/token-expired':
        return { POST: (_url, read) => this.setTokenExpired(id, read()), DELETE: () => this.setTokenExpired(id, { expired: false }) };
      case 'accounts/pricing-exempt':
        return {
          GET: () => ({ status: 200, body: { wabaId: id, exempt: this.deps.webhooks.serviceTier.isExempt(id) } }),
          POST: (_url, read) => ({ status: 200, body: this.deps.webhooks.serviceTier.setExempt(id, read()) }),
          DELETE: () => ({ status: 200, body: this.deps.webhooks.serviceTier.setExempt(id, { exempt: false }) }),
        };
      case 'accounts/marketing-messages':
        return {
          GET: () => this.marketingMessages(id),
          POST: (_url, read) => this.setMarketingMessages(id, read()),
          DELETE: () =>
            this.setMarketingMessages(id, { onboardingStatus: this.deps.state.account(id)?.account.marketingMessagesOnboardingStatus ?? 'ELIGIBLE' }),
        };
      case 'phone-numbers/standby':
        return {
          POST: (_url, read) => ({ status: 200, body: setStandby(this.deps.state, id, read()) }),
          DELETE: () => ({ status: 200, body: setStandby(this.deps.state, id, { standby: false }) }),
        };
      default:
        return undefined;
    }
  }

  async handle(method: string, url: URL, rawBody: Buffer): Promise<ControlResponse> {
    try {
      const body = () => parseJson(rawBody);
      const methods = this.itemRoutes(url.pathname) ?? this.routes[url.pathname.replace(/\/+$/, '')];
      if (methods === undefined) return { status: 404, body: { error: { message: `unknown sandbox route ${url.pathname}` } } };
      return await this.dispatch(methods, method, url, body);
    } catch (error) {
      if (error instanceof SandboxRequestError) return { status: error.httpStatus, body: { error: { message: error.message } } };
      if (error instanceof URIError) return { status: 400, body: { error: { message: 'malformed path' } } };
      throw error;
    }
  }

  private dispatch(methods: Record<string, Handler>, method: string, url: URL, body: () => unknown): ControlResponse | Promise<ControlResponse> {
    const handler = methods[method];
    if (handler === undefined) {
      const allowed = Object.keys(methods).join(', ');
      return { status: 405, body: { error: { message: `use ${allowed}` } }, headers: { allow: allowed } };
    }
    return handler(url, body);
  }

  /** Body `{ "expired": true }` (the default) or `{ "expired": false }`; DELETE also clears it. */
  private setTokenExpired(wabaId: string, body: unknown): ControlResponse {
    const expired = typeof body === 'object' && body !== null ? ((body as { expired?: unknown }).expired ?? true) : true;
    if (typeof expired !== 'boolean') throw new SandboxRequestError(400, 'expired must be a boolean');
    this.deps.state.setTokenExpired(wabaId, expired);
    return { status: 200, body: { wabaId, tokenExpired: expired } };
  }

  private marketingMessages(wabaId: string): ControlResponse {
    const stored = this.deps.state.account(wabaId);
    if (stored === undefined) throw new SandboxRequestError(404, `no account with wabaId ${wabaId}`);
    const { onboardingStatus, disableOnCloudApi } = stored.marketing;
    return { status: 200, body: { wabaId, onboardingStatus, disableMarketingMessagesOnCloudApi: disableOnCloudApi } };
  }

  /** Body `{ "onboardingStatus": "ONBOARDED" }` (or ELIGIBLE, NOT_ELIGIBLE). */
  private setMarketingMessages(wabaId: string, body: unknown): ControlResponse {
    const status = typeof body === 'object' && body !== null ? (body as { onboardingStatus?: unknown }).onboardingStatus : undefined;
    this.deps.state.setMarketingMessagesOnboarding(wabaId, status);
    return this.marketingMessages(wabaId);
  }

  /** Body `{ "holdMs": 5000 }` (default 30 s) puts the template under pacing; DELETE (undefined) ends it. */
  private setTemplatePacing(templateId: string, body: unknown): ControlResponse {
    let holdMs: unknown;
    if (body !== undefined) {
      holdMs = (typeof body === 'object' && body !== null ? (body as { holdMs?: unknown }).holdMs : undefined) ?? DEFAULT_PACING_HOLD_MS;
      if (typeof holdMs !== 'number' || !Number.isInteger(holdMs) || holdMs < 0 || holdMs > MAX_PACING_HOLD_MS) {
        throw new SandboxRequestError(400, `holdMs must be an integer between 0 and ${MAX_PACING_HOLD_MS}`);
      }
    }
    const stored = this.deps.state.setTemplatePacing(templateId, holdMs as number | undefined);
    return { status: 200, body: { id: templateId, pacing: stored.info.pacing ?? null } };
  }

  /** Body `{ "syncing": true }` (the default) or `{ "syncing": false }`; DELETE also clears it. */
  private setTemplateSyncing(templateId: string, body: unknown): ControlResponse {
    const syncing = typeof body === 'object' && body !== null ? ((body as { syncing?: unknown }).syncing ?? true) : true;
    if (typeof syncing !== 'boolean') throw new SandboxRequestError(400, 'syncing must be a boolean');
    this.deps.state.setTemplateSyncing(templateId, syncing);
    return { status: 200, body: { id: templateId, syncing } };
  }

  private setTemplateStatus(templateId: string, body: unknown): ControlResponse {
    const status = typeof body === 'object' && body !== null ? (body as { status?: unknown }).status : undefined;
    const template = this.deps.state.setTemplateStatus(templateId, status);
    return { status: 200, body: { id: template.id, name: template.name, language: template.language, status: template.status } };
  }
}
