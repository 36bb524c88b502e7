/** Request-body reading and JSON responses on bare `node:http`. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Far above any real message body; stops a runaway client from filling memory. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Resolves the body, or null once it exceeds `limit` (the rest is drained and dropped). */
export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? null : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=UTF-8',
    'content-length': Buffer.byteLength(payload),
  });
  response.end(payload);
}

export function sendBytes(response: ServerResponse, status: number, body: Buffer, headers: Record<string, string>): void {
  response.writeHead(status, { ...headers, 'content-length': body.length });
  response.end(body);
}

export function sendEmpty(response: ServerResponse, status: number): void {
  response.writeHead(status);
  response.end();
}
