/** Small HTTP helpers of the local identity provider's server: bodies in, pages and JSON out, its security headers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError } from './errors';

/** Larger bodies are refused: a sign-in form or an admin call is a few hundred bytes. */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * The request's body as text (at most 16 KiB).
 *
 * @example
 * const form = new URLSearchParams(await readBody(request));
 */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(MAX_BODY_BYTES);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The pages' Content-Security-Policy: nothing inline, styles and scripts from this server only
 * (oidc-provider adds the hash of its one inline script, the form_post page, to `script-src`),
 * forms posting here or to the console (Chrome checks `form-action` on the redirects after a post too).
 *
 * @example
 * contentSecurityPolicy(['http://127.0.0.1:3000']);
 */
export function contentSecurityPolicy(consoleOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    `form-action 'self' ${consoleOrigins.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Headers on every answer of the server (before oidc-provider or a route writes its own). */
export function setSecurityHeaders(response: ServerResponse, csp: string): void {
  response.setHeader('content-security-policy', csp);
  response.setHeader('x-content-type-options', 'nosniff');
  response.setHeader('referrer-policy', 'no-referrer');
}

export function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.statusCode = status;
  response.setHeader('content-type', 'text/html; charset=utf-8');
  response.setHeader('cache-control', 'no-store');
  response.end(html);
}

export function sendJson(response: ServerResponse, status: number, body?: unknown): void {
  response.statusCode = status;
  response.setHeader('cache-control', 'no-store');
  if (body === undefined) {
    response.end();
    return;
  }
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(body));
}
