/**
 * GraphTransport: the configured base URL and version before every path, the account's token as a
 * Bearer header, a hard timeout on every call. JSON and bodiless calls go over keep-alive HTTP
 * (shared/adapters/http/keep-alive-http-client.ts: a fifth of fetch's CPU per call); multipart
 * uploads and media downloads, rare and large, over fetch (FormData/Blob write the boundary; the
 * body streams with a size cap). Answers are data; only a missing answer throws
 * (UpstreamUnavailableError).
 */
import type { BinaryResponse, GraphRequest, GraphResponse, GraphTransport } from '../../upstream/graph-transport';
import { MediaTooLargeError, UpstreamUnavailableError } from '../../upstream/errors';
import { HttpTimeoutError } from '../http/errors';
import { sendPlainRequest } from '../http/keep-alive-http-client';
import { parsedBody } from './graph-body';

export interface GraphTransportSettings {
  baseUrl: string;
  version: string;
  timeoutMs: number;
}

const headersOf = (response: Response): Record<string, string> => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  return headers;
};

/** By name, not instanceof: the DOMException of an aborted fetch may come from another realm (jest). */
const unavailable = (error: unknown): UpstreamUnavailableError => {
  const name = (error as { name?: unknown } | null)?.name;
  const timedOut = error instanceof HttpTimeoutError || name === 'TimeoutError' || name === 'AbortError';
  return new UpstreamUnavailableError(timedOut ? 'timeout' : 'connection failed', { cause: error });
};

export class HttpGraphTransport implements GraphTransport {
  constructor(private readonly settings: GraphTransportSettings) {}

  url(path: string, query: Readonly<Record<string, string>> = {}): string {
    const search = new URLSearchParams(query).toString();
    return `${this.settings.baseUrl}/${this.settings.version}${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
  }

  async request(request: GraphRequest): Promise<GraphResponse> {
    const headers: Record<string, string> = { Authorization: `Bearer ${request.accessToken}` };
    const timeoutMs = Math.min(request.timeoutMs ?? this.settings.timeoutMs, this.settings.timeoutMs);
    const url = this.url(request.path, request.query);
    try {
      // The timeout covers the body too: a stalled answer is as unknown as no answer.
      if (request.multipart) {
        const form = new FormData();
        for (const [name, value] of request.multipart.fields) form.append(name, value);
        for (const file of request.multipart.files) form.append(file.field, new Blob([file.data], { type: file.contentType }), file.filename);
        const response = await fetch(url, { method: request.method, headers, body: form, signal: AbortSignal.timeout(timeoutMs) });
        return { status: response.status, headers: headersOf(response), body: parsedBody(await response.text()) };
      }
      if (request.json !== undefined) headers['Content-Type'] = 'application/json';
      const body = request.json === undefined ? undefined : JSON.stringify(request.json);
      const response = await sendPlainRequest({ url, method: request.method, headers, body, timeoutMs });
      return { status: response.status, headers: response.headers, body: parsedBody(response.text) };
    } catch (error) {
      throw unavailable(error);
    }
  }

  async download(url: string, accessToken: string, options: { maxBytes: number }): Promise<BinaryResponse> {
    let response: Response;
    try {
      response = await fetch(url, { headers: { Authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(this.settings.timeoutMs) });
    } catch (error) {
      throw unavailable(error);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body ?? []) {
        size += (chunk as Uint8Array).length;
        if (size > options.maxBytes) {
          await response.body?.cancel().catch(() => undefined);
          throw new MediaTooLargeError(`media exceeds ${options.maxBytes} bytes; downloads through this API are limited to that`, options.maxBytes);
        }
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
    } catch (error) {
      if (error instanceof MediaTooLargeError) throw error;
      throw unavailable(error);
    }
    return { status: response.status, headers: headersOf(response), body: Buffer.concat(chunks, size) };
  }
}
