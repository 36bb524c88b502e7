/**
 * The HTTP client of webhook deliveries, where the customer chooses the URL (SSRF-safe):
 *
 * - every connection's address is checked by the address policy after DNS resolution, inside the
 *   socket's own `lookup` (no gap between the check and the connect for DNS rebinding to use),
 *   and a fresh connection is made per request (no agent, no keep-alive), so each one is checked;
 *   an IP-literal host never reaches `lookup` (Node connects to it directly) and is checked first;
 * - https only, except in local mode (plain http to loopback receivers, for trying it locally);
 * - redirects are not followed: a 3xx is just a status (a failed delivery);
 * - the response body is read up to 4 KiB and discarded; the whole attempt has one deadline.
 *
 * Errors carry a reason and the host name at most: never the URL's path or query, which may hold a customer's token.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isForbiddenAddress } from '../../customer-events/address-policy';
import type { WebhookRequest, WebhookTransport } from '../../customer-events/delivery-ports';
import { WebhookDeliveryError } from '../../customer-events/errors';

export const MAX_RESPONSE_BYTES = 4 * 1024;

/** Resolves a host name to all its addresses (dns.lookup by default; tests pass their own). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

export interface SafeHttpClientOptions {
  /** Local mode: loopback addresses and plain http. */
  allowLoopback: boolean;
  resolver?: Resolver;
}

class ForbiddenAddressError extends Error {
  override readonly name = 'ForbiddenAddressError';
  readonly code = 'FORBIDDEN_ADDRESS';
}

export class SafeHttpClient implements WebhookTransport {
  private readonly resolver: Resolver;

  constructor(private readonly options: SafeHttpClientOptions) {
    this.resolver = options.resolver ?? systemResolver;
  }

  /** The socket's DNS step: every address the name resolves to must be allowed, or none is used. */
  private readonly lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    this.resolver(hostname).then(
      (addresses) => {
        const family = typeof lookupOptions === 'object' ? lookupOptions.family : undefined;
        const usable = addresses.filter((address) => !family || family === 0 || address.family === family || String(family) === `IPv${address.family}`);
        if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
        if (usable.some((address) => isForbiddenAddress(address.address, this.options))) {
          return callback(new ForbiddenAddressError(`${hostname} resolves to a forbidden address`), '', 4);
        }
        if (typeof lookupOptions === 'object' && lookupOptions.all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, usable);
        return callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };

  post(request: WebhookRequest): Promise<{ status: number }> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return Promise.reject(new WebhookDeliveryError('INVALID_URL', 'the endpoint URL does not parse'));
    }
    const secure = url.protocol === 'https:';
    if (!secure && !(url.protocol === 'http:' && this.options.allowLoopback)) {
      return Promise.reject(new WebhookDeliveryError('INSECURE_URL', `only https URLs are delivered to (${url.protocol})`));
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && isForbiddenAddress(host, this.options)) {
      return Promise.reject(new WebhookDeliveryError('FORBIDDEN_ADDRESS', `${host} is a forbidden address`));
    }

    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        outcome();
      };
      const transport = secure ? https : http;
      const outgoing = transport.request(
        url,
        {
          method: 'POST',
          headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
          agent: false,
          lookup: this.lookup,
          maxHeaderSize: 16 * 1024,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          let received = 0;
          const finish = () => {
            settle(() => resolve({ status }));
            outgoing.destroy();
          };
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received >= MAX_RESPONSE_BYTES) finish();
          });
          response.on('end', finish);
          response.on('error', finish);
        },
      );
      const deadline = setTimeout(() => {
        settle(() => reject(new WebhookDeliveryError('TIMEOUT', `no answer from ${host} within ${request.timeoutMs} ms`)));
        outgoing.destroy();
      }, request.timeoutMs);
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        const forbidden = error instanceof ForbiddenAddressError || error.code === 'FORBIDDEN_ADDRESS';
        settle(() =>
          reject(
            forbidden
              ? new WebhookDeliveryError('FORBIDDEN_ADDRESS', error.message)
              : new WebhookDeliveryError('CONNECTION_FAILED', `connection to ${host} failed (${error.code ?? error.name})`),
          ),
        );
      });
      outgoing.end(request.body);
    });
  }
}
