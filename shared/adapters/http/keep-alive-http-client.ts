/**
 * Plain HTTP(S) requests over Node's http/https with keep-alive agents, for the Graph API's hot
 * paths (a send per recipient, the /upstream wrapper's JSON calls).
 *
 * Why not fetch: on this project's 2-core machine a fetch of a tiny JSON answer costs about 1.0 ms
 * of client CPU against 0.17 ms for http.request on a keep-alive agent (docs/PERFORMANCE.md 4f); at
 * 1,000 sends a second that difference is most of a core. Multipart uploads and media downloads,
 * rare and large, stay on fetch.
 *
 * Idle connections are closed after 4 s (as undici does), before servers' usual 5 s keep-alive,
 * so a reused socket is rarely one the server is closing. The time limit covers the whole answer.
 */
import http from 'node:http';
import https from 'node:https';
import { HttpTimeoutError } from './errors';

export interface PlainHttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /**
   * Where `timeoutMs` starts: at the call (default: the whole answer, a wait for a free socket
   * included, as the SDK's request handler counts it too), or once a socket is the request's: a store
   * client's queue behind its socket limit on a busy process is not the store being slow.
   */
  timeoutFrom?: 'call' | 'socket';
}

export interface PlainHttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

/** Sockets per origin: the chunk worker's in-flight cap (each lane holds one; Lambda allows 1,024 descriptors). */
const MAX_SOCKETS_PER_ORIGIN = 512;
const IDLE_SOCKET_MS = 4_000;

/** An http and an https keep-alive agent with one socket limit per origin. */
export interface KeepAliveAgents {
  readonly http: http.Agent;
  readonly https: https.Agent;
}

/**
 * Agents for `sendPlainRequest`. Every socket may wait idle (Node keeps 256 by default: past that, a
 * burst's sockets were closed as they came free and opened again by the next burst, a TLS handshake
 * each on AWS); the idle timeout closes those no longer needed.
 * @example
 * const storeAgents = keepAliveAgents(50); // the SDK's own socket limit, for DynamoDB
 */
export function keepAliveAgents(maxSocketsPerOrigin: number): KeepAliveAgents {
  const options = {
    keepAlive: true,
    maxSockets: maxSocketsPerOrigin,
    maxFreeSockets: maxSocketsPerOrigin,
    timeout: IDLE_SOCKET_MS,
    scheduling: 'lifo' as const,
  };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

const graphAgents = keepAliveAgents(MAX_SOCKETS_PER_ORIGIN);

const headersOf = (raw: http.IncomingHttpHeaders): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
};

export function sendPlainRequest(request: PlainHttpRequest, agents: KeepAliveAgents = graphAgents): Promise<PlainHttpResponse> {
  const url = new URL(request.url);
  const secure = url.protocol === 'https:';
  const transport = secure ? https : http;
  const headers = request.body === undefined ? request.headers : { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) };
  return new Promise<PlainHttpResponse>((resolve, reject) => {
    const outgoing = transport.request(url, { method: request.method, headers, agent: secure ? agents.https : agents.http }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', fail);
      incoming.on('end', () => {
        clearTimeout(timer);
        resolve({ status: incoming.statusCode ?? 0, headers: headersOf(incoming.headers), text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    // The agent's idle timeout also fires on a socket in use; the request's own limit is the timer below.
    outgoing.on('timeout', () => undefined);
    outgoing.on('error', fail);
    let timer: NodeJS.Timeout | undefined;
    const startClock = () => {
      timer = setTimeout(() => {
        const timeout = new HttpTimeoutError(`no complete answer within ${request.timeoutMs} ms`);
        outgoing.destroy(timeout);
        reject(timeout);
      }, request.timeoutMs);
    };
    if (request.timeoutFrom === 'socket') outgoing.once('socket', startClock);
    else startClock();
    function fail(error: Error): void {
      clearTimeout(timer);
      reject(error);
    }
    outgoing.end(request.body);
  });
}
