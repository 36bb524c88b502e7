/**
 * The /upstream wrapper's port to the Graph API: plain HTTP requests with the account's token,
 * answers as data. The adapter (shared/adapters/graph-api/http-graph-transport.ts) adds the base
 * URL and version and enforces the timeout; the use cases decide what a status means.
 */
import type { HttpMethod } from '../../runtime-contract/route-manifest';

export interface MultipartFile {
  /** Form field name (`file`). */
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartPayload {
  /** Plain form fields, in order. */
  fields: ReadonlyArray<readonly [string, string]>;
  files: readonly MultipartFile[];
}

export interface GraphRequest {
  method: HttpMethod;
  /** Graph path after the version, e.g. `/1200001/messages`; segments already encoded. */
  path: string;
  query?: Readonly<Record<string, string>>;
  /** JSON body; mutually exclusive with `multipart`. */
  json?: unknown;
  multipart?: MultipartPayload;
  accessToken: string;
  /** A shorter timeout than the configured one (bulk sends near their budget). */
  timeoutMs?: number;
}

export interface GraphResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Readonly<Record<string, string>>;
  /** Parsed JSON; the text when the body is not JSON; undefined when empty. */
  body: unknown;
}

export interface BinaryResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: Buffer;
}

export interface GraphTransport {
  /** Throws UpstreamUnavailableError ('timeout' / 'connection failed') when no answer arrives. */
  request(request: GraphRequest): Promise<GraphResponse>;
  /**
   * GETs an absolute URL Graph handed out (a media download URL) with the token. Throws
   * UpstreamUnavailableError on timeout, and MediaTooLargeError beyond `maxBytes` (read stops there).
   */
  download(url: string, accessToken: string, options: { maxBytes: number }): Promise<BinaryResponse>;
}
