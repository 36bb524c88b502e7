/**
 * Graph API over keep-alive HTTP (shared/adapters/http/keep-alive-http-client.ts: a send costs a
 * fifth of fetch's CPU, which matters at 1,000 sends/s). Every call has a hard timeout; what a
 * send's answer (or its absence) means is the classifier's (shared/sending/graph-answer.ts).
 */
import { classifyGraphAnswer, sendOutcomeOf, type GraphReply } from '../../sending/graph-answer';
import { graphErrorFrom } from '../../sending/graph-error';
import type { CloudApiClient, SendEndpoint, SendOutcome, UpstreamCall, UpstreamPhoneNumber, UpstreamTemplate } from '../../sending/ports';
import { UpstreamRequestError, UpstreamUnavailableError } from '../../upstream/errors';
import { HttpTimeoutError } from '../http/errors';
import { sendPlainRequest, type PlainHttpResponse } from '../http/keep-alive-http-client';
import { parsedBody } from './graph-body';

export interface GraphApiSettings {
  baseUrl: string;
  version: string;
  timeoutMs: number;
}

const MAX_PAGES = 50;

const isSuccess = (status: number): boolean => status >= 200 && status < 300;

const TEMPLATE_FIELDS = 'id,name,language,status,category,parameter_format,components,quality_score,rejected_reason,optimization_spec';

export class HttpCloudApiClient implements CloudApiClient {
  constructor(private readonly settings: GraphApiSettings) {}

  private url(path: string): string {
    return `${this.settings.baseUrl}/${this.settings.version}/${path}`;
  }

  private request(url: string, call: UpstreamCall, body?: string): Promise<PlainHttpResponse> {
    return sendPlainRequest({
      url,
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${call.accessToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body,
      timeoutMs: this.settings.timeoutMs,
    });
  }

  private async getAllPages<T>(firstUrl: string, call: UpstreamCall): Promise<T[]> {
    const items: T[] = [];
    let url: string | undefined = firstUrl;
    for (let page = 0; url && page < MAX_PAGES; page += 1) {
      const payload: { data?: T[]; paging?: { next?: string } } = await this.getJson<{ data?: T[]; paging?: { next?: string } }>(url, call);
      items.push(...(payload.data ?? []));
      url = payload.paging?.next;
    }
    return items;
  }

  /** One GET: no answer → UpstreamUnavailableError; Meta's error → UpstreamRequestError with its code. */
  private async getJson<T>(url: string, call: UpstreamCall): Promise<T> {
    let response: PlainHttpResponse;
    let payload: T;
    try {
      response = await this.request(url, call);
      payload = JSON.parse(response.text) as T;
    } catch (error) {
      throw new UpstreamUnavailableError('Cloud API did not answer', { cause: error });
    }
    if (!isSuccess(response.status)) throw new UpstreamRequestError(response.status, graphErrorFrom(payload, response.status));
    return payload;
  }

  listTemplates(wabaId: string, call: UpstreamCall): Promise<UpstreamTemplate[]> {
    // Named: Meta's default fields may leave out parameter_format, which says how a send names body values.
    return this.getAllPages(this.url(`${encodeURIComponent(wabaId)}/message_templates?fields=${TEMPLATE_FIELDS}&limit=100`), call);
  }

  listPhoneNumbers(wabaId: string, call: UpstreamCall): Promise<UpstreamPhoneNumber[]> {
    return this.getAllPages(this.url(`${encodeURIComponent(wabaId)}/phone_numbers?limit=100`), call);
  }

  async messagingLimitOf(phoneNumberId: string, call: UpstreamCall): Promise<string | undefined> {
    const url = this.url(`${encodeURIComponent(phoneNumberId)}?fields=whatsapp_business_manager_messaging_limit`);
    const payload = await this.getJson<{ whatsapp_business_manager_messaging_limit?: unknown }>(url, call);
    const limit = payload.whatsapp_business_manager_messaging_limit;
    return typeof limit === 'string' ? limit : undefined;
  }

  async marketingMessagesOnboardingOf(wabaId: string, call: UpstreamCall): Promise<string | undefined> {
    const url = this.url(`${encodeURIComponent(wabaId)}?fields=marketing_messages_onboarding_status`);
    const payload = await this.getJson<{ marketing_messages_onboarding_status?: unknown }>(url, call);
    const status = payload.marketing_messages_onboarding_status;
    return typeof status === 'string' ? status : undefined;
  }

  async sendMessage(phoneNumberId: string, body: Record<string, unknown>, call: UpstreamCall, endpoint: SendEndpoint = {}): Promise<SendOutcome> {
    let reply: GraphReply;
    try {
      const path = `${encodeURIComponent(phoneNumberId)}/${endpoint.api === 'marketing_messages' ? 'marketing_messages' : 'messages'}`;
      const response = await this.request(this.url(path), call, JSON.stringify(body));
      reply = { kind: 'answered', httpStatus: response.status, body: parsedBody(response.text) };
    } catch (error) {
      reply = { kind: 'no-answer', failure: error instanceof HttpTimeoutError ? 'timeout' : 'connection failed' };
    }
    return sendOutcomeOf(classifyGraphAnswer(reply));
  }
}
