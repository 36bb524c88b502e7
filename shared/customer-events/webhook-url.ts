/**
 * The url rules of a webhook endpoint (docs/CUSTOMER-WEBHOOKS.md "URL rules"): absolute, https
 * (http only for local receivers), no credentials, at most 2,048 characters, and a host that is,
 * or resolves only to, public addresses (address-policy.ts).
 */
import { addressRefusal, isIpAddress, unbracket, type AddressPolicyOptions } from './address-policy';
import { InvalidWebhookUrlError, WebhookAddressNotAllowedError, WebhookHostUnresolvableError } from './errors';
import type { HostResolver } from './ports';
import { MAX_WEBHOOK_URL_LENGTH } from './webhook-endpoint.schema';

export interface WebhookUrlPolicy {
  /** True only in the local runtime: http and loopback receivers are allowed so the flow can be tried. */
  allowInsecureLocalReceivers: boolean;
}

export const addressOptionsOf = (policy: WebhookUrlPolicy): AddressPolicyOptions => ({ allowLoopback: policy.allowInsecureLocalReceivers });

/** The url as it will be called (normalized, fragment dropped), or InvalidWebhookUrlError naming the rule. */
export function parseWebhookUrl(text: string, policy: WebhookUrlPolicy): URL {
  if (text.length > MAX_WEBHOOK_URL_LENGTH)
    throw new InvalidWebhookUrlError(`url must be at most ${MAX_WEBHOOK_URL_LENGTH.toLocaleString('en-US')} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidWebhookUrlError('url must be an absolute URL (https://host/path)');
  }
  if (url.protocol === 'http:') {
    if (!policy.allowInsecureLocalReceivers) throw new InvalidWebhookUrlError('url must use https');
  } else if (url.protocol !== 'https:') {
    throw new InvalidWebhookUrlError(policy.allowInsecureLocalReceivers ? 'url must use https or http' : 'url must use https');
  }
  if (url.username !== '' || url.password !== '') throw new InvalidWebhookUrlError('url must not contain credentials (user:password@)');
  if (url.hostname === '') throw new InvalidWebhookUrlError('url must name a host');
  url.hash = '';
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH)
    throw new InvalidWebhookUrlError(`url must be at most ${MAX_WEBHOOK_URL_LENGTH.toLocaleString('en-US')} characters`);
  return url;
}

/** Every address the host is or resolves to must be allowed: one private answer is enough to refuse. */
export async function requirePublicHost(resolver: HostResolver, url: URL, policy: WebhookUrlPolicy): Promise<void> {
  const host = unbracket(url.hostname);
  const addresses = isIpAddress(host) ? [host] : await resolver.resolve(host);
  if (addresses.length === 0) throw new WebhookHostUnresolvableError();
  for (const address of addresses) {
    const refusal = addressRefusal(address, addressOptionsOf(policy));
    if (refusal !== undefined) throw new WebhookAddressNotAllowedError(refusal);
  }
}
