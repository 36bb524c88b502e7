/**
 * The Graph routes the sandbox serves, in the order Graph itself resolves a request:
 * path → access token → object → edge and method → body. Everything here is synchronous; the
 * HTTP layer adds latency and holds requests that should time out.
 */
import type { AcceptedMessageLog } from './accepted-message-log';
import {
  GraphError,
  injectedError,
  invalidAccessToken,
  invalidJsonBody,
  nonexistingField,
  rateLimitHit,
  templateDisabled,
  templateNotFound,
  templatePaused,
  transientServiceError,
  unknownPathComponents,
  unsupportedRequest,
} from './graph-errors';
import {
  PHONE_NUMBER_NODE,
  TEMPLATE_NODE,
  WABA_NODE,
  paginate,
  parseFields,
  renderPhoneNumber,
  renderTemplate,
  renderWaba,
  selectFields,
  type NodeDescription,
} from './graph-listing';
import type { MessageIdGenerator } from './message-ids';
import { checkTemplateParams, parseMessageRequest } from './message-validation';
import type { SandboxControl } from './sandbox-control';
import type { GraphNode, SandboxState, StoredAccount } from './sandbox-state';
import type { SandboxPhoneNumber } from './sandbox-types';
import type { ThroughputLimiter } from './throughput-limiter';

export interface GraphRequest {
  method: string;
  url: URL;
  authorization: string | undefined;
  body: Buffer;
}

export type GraphOutcome =
  | { kind: 'respond'; status: number; body: unknown; headers?: Record<string, string> }
  /** Never answer: the request models a call Meta does not answer before the client gives up. */
  | { kind: 'hold' };

export interface GraphDependencies {
  state: SandboxState;
  control: SandboxControl;
  limiter: ThroughputLimiter;
  log: AcceptedMessageLog;
  messageIds: MessageIdGenerator;
}

interface EdgeRoute {
  method: string;
  handle: (request: GraphRequest) => GraphOutcome;
}

const VERSIONED_PATH = /^\/v\d+\.\d+(\/.*)?$/;

function ok(body: unknown): GraphOutcome {
  return { kind: 'respond', status: 200, body };
}

/** Graph takes the token from `Authorization: Bearer|OAuth <token>` or `?access_token=`. */
function accessToken(request: GraphRequest): string | undefined {
  const header = request.authorization;
  if (header !== undefined) {
    const match = /^(?:Bearer|OAuth)\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  return request.url.searchParams.get('access_token') ?? undefined;
}

function decodePathSegment(segment: string, pathname: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw unknownPathComponents(pathname);
  }
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw invalidJsonBody();
  }
}

function matchesFilter(value: string, filter: string | null): boolean {
  if (filter === null || filter === '') return true;
  return filter
    .split(',')
    .map((entry) => entry.trim().toUpperCase())
    .includes(value.toUpperCase());
}

export class GraphApi {
  constructor(private readonly deps: GraphDependencies) {}

  handle(request: GraphRequest): GraphOutcome {
    try {
      return this.route(request);
    } catch (error) {
      if (error instanceof GraphError) {
        return { kind: 'respond', status: error.httpStatus, body: error.toBody(), headers: error.headers };
      }
      throw error;
    }
  }

  private route(request: GraphRequest): GraphOutcome {
    const { pathname } = request.url;
    const versioned = VERSIONED_PATH.exec(pathname);
    if (versioned === null) throw unknownPathComponents(pathname);
    const segments = (versioned[1] ?? '').split('/').filter((segment) => segment.length > 0);
    if (segments.length === 0 || segments.length > 2) {
      throw unknownPathComponents(`/${segments.slice(segments.length === 0 ? 0 : 2).join('/')}`);
    }
    const [objectId = '', edge] = segments.map((segment) => decodePathSegment(segment, pathname));

    // Graph rejects a bad token before it looks anything up, so unknown ids cannot be probed.
    const token = accessToken(request);
    if (token === undefined || !this.deps.state.isKnownToken(token)) throw invalidAccessToken();
    const node = this.deps.state.node(objectId);
    if (node === undefined) throw unsupportedRequest(request.method, objectId);
    if (node.owner.account.accessToken !== token) throw invalidAccessToken();

    if (edge === undefined) return this.readNode(request, node, objectId);
    return this.routeEdge(request, node, objectId, edge);
  }

  private readNode(request: GraphRequest, node: GraphNode, objectId: string): GraphOutcome {
    if (request.method !== 'GET') throw unsupportedRequest(request.method, objectId);
    const fields = (description: NodeDescription) => parseFields(request.url.searchParams.get('fields'), description);
    switch (node.kind) {
      case 'waba':
        return ok(selectFields(renderWaba(node.owner.account), fields(WABA_NODE)));
      case 'phone':
        return ok(selectFields(this.renderPhone(node.phone), fields(PHONE_NUMBER_NODE)));
      case 'template':
        return ok(selectFields(renderTemplate(node.stored.template), fields(TEMPLATE_NODE)));
    }
  }

  private routeEdge(request: GraphRequest, node: GraphNode, objectId: string, edge: string): GraphOutcome {
    const route = this.edgeRoute(node, edge);
    if (route === undefined) {
      if (request.method === 'GET') throw nonexistingField(edge, this.nodeType(node));
      throw unsupportedRequest(request.method, objectId);
    }
    if (route.method !== request.method) throw unsupportedRequest(request.method, objectId);
    return route.handle(request);
  }

  private edgeRoute(node: GraphNode, edge: string): EdgeRoute | undefined {
    if (node.kind === 'waba' && edge === 'phone_numbers') {
      return { method: 'GET', handle: (request) => this.listPhoneNumbers(request, node.owner) };
    }
    if (node.kind === 'waba' && edge === 'message_templates') {
      return { method: 'GET', handle: (request) => this.listTemplates(request, node.owner) };
    }
    if (node.kind === 'phone' && edge === 'messages') {
      return { method: 'POST', handle: (request) => this.sendMessage(request, node.owner, node.phone) };
    }
    return undefined;
  }

  private nodeType(node: GraphNode): string {
    return { waba: WABA_NODE, phone: PHONE_NUMBER_NODE, template: TEMPLATE_NODE }[node.kind].type;
  }

  private renderPhone(phone: SandboxPhoneNumber) {
    return renderPhoneNumber(phone, this.deps.control.throughputFor(phone.id));
  }

  private listPhoneNumbers(request: GraphRequest, owner: StoredAccount): GraphOutcome {
    const fields = parseFields(request.url.searchParams.get('fields'), PHONE_NUMBER_NODE);
    const items = owner.account.phoneNumbers.map((phone) => selectFields(this.renderPhone(phone), fields));
    return ok(paginate(items, request.url.searchParams, request.url));
  }

  private listTemplates(request: GraphRequest, owner: StoredAccount): GraphOutcome {
    const query = request.url.searchParams;
    const fields = parseFields(query.get('fields'), TEMPLATE_NODE);
    const name = query.get('name');
    const language = query.get('language');
    const items = owner.account.templates
      .filter(
        (template) =>
          (name === null || name === '' || template.name === name) &&
          (language === null || language === '' || template.language === language) &&
          matchesFilter(template.status, query.get('status')) &&
          matchesFilter(template.category, query.get('category')),
      )
      .map((template) => selectFields(renderTemplate(template), fields));
    return ok(paginate(items, query, request.url));
  }

  /**
   * Validation first (deterministic client errors), then injected faults, then throughput —
   * so `recipientErrors` fire regardless of load and only accepted messages use up throughput.
   */
  private sendMessage(request: GraphRequest, owner: StoredAccount, phone: SandboxPhoneNumber): GraphOutcome {
    const { state, control, limiter, log, messageIds } = this.deps;
    const body = parseJson(request.body);
    const message = parseMessageRequest(body);
    if (message.kind === 'read') return ok({ success: true });

    if (message.template !== undefined) {
      const { name, languageCode } = message.template;
      const stored = state.findTemplate(owner, name, languageCode);
      const status = stored?.template.status;
      if (stored === undefined || (status !== 'APPROVED' && status !== 'PAUSED' && status !== 'DISABLED')) {
        throw templateNotFound(name, languageCode);
      }
      if (status === 'PAUSED') throw templatePaused(name, languageCode);
      if (status === 'DISABLED') throw templateDisabled(name, languageCode);
      checkTemplateParams(stored.expectedParams, message.template);
    }

    if (control.takeRecipientTimeout(message.waId)) return { kind: 'hold' };
    const rule = control.takeRecipientError(message.waId);
    if (rule !== undefined) throw injectedError(rule.code, rule.httpStatus, rule.message);
    if (control.shouldFailTransiently()) throw transientServiceError();
    if (!limiter.tryAcquire(phone.id, control.throughputFor(phone.id))) throw rateLimitHit();

    const messageId = messageIds.next(message.waId);
    log.record({
      messageId,
      phoneNumberId: phone.id,
      recipient: message.waId,
      type: message.type,
      body,
      receivedAt: new Date().toISOString(),
    });
    return ok({
      messaging_product: 'whatsapp',
      contacts: [{ input: message.to, wa_id: message.waId }],
      // Meta reports message_status only for template messages.
      messages: [message.template === undefined ? { id: messageId } : { id: messageId, message_status: 'accepted' }],
    });
  }
}
