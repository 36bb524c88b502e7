/**
 * GraphTransport over Node's fetch (undici: pooled keep-alive connections): the configured base URL
 * and version before every path, the account's token as a Bearer header, a hard timeout on every
 * call. JSON bodies go as JSON; multipart payloads are re-encoded with FormData/Blob (fetch writes
 * the boundary). Answers are data; only a missing answer throws (UpstreamUnavailableError).
 */
import type { BinaryResponse, GraphRequest, GraphResponse, GraphTransport } from '../../upstream/graph-transport';
import { MediaTooLargeError, UpstreamUnavailableError } from '../../upstream/errors';

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
  return new UpstreamUnavailableError(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'connection failed', { cause: error });
};

export class FetchGraphTransport implements GraphTransport {
  constructor(private readonly settings: GraphTransportSettings) {}

  url(path: string, query: Readonly<Record<string, string>> = {}): string {
    const search = new URLSearchParams(query).toString();
    return `${this.settings.baseUrl}/${this.settings.version}${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
  }

  async request(request: GraphRequest): Promise<GraphResponse> {
    const headers: Record<string, string> = { Authorization: `Bearer ${request.accessToken}` };
    let body: string | FormData | undefined;
    if (request.multipart) {
      const form = new FormData();
      for (const [name, value] of request.multipart.fields) form.append(name, value);
      for (const file of request.multipart.files) form.append(file.field, new Blob([file.data], { type: file.contentType }), file.filename);
      body = form;
    } else if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    const timeoutMs = Math.min(request.timeoutMs ?? this.settings.timeoutMs, this.settings.timeoutMs);
    try {
      // The timeout covers the body too: a stalled answer is as unknown as no answer.
      const response = await fetch(this.url(request.path, request.query), { method: request.method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
      const text = await response.text();
      let parsed: unknown = undefined;
      if (text.length > 0) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      return { status: response.status, headers: headersOf(response), body: parsed };
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
