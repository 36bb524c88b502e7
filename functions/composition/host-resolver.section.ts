/**
 * DNS for the webhook url checks (shared/customer-events/webhook-url.ts): the system resolver's
 * `lookup` with every address, v4 and v6, as the HTTP client would see them.
 */
import { lookup } from 'node:dns/promises';
import type { HostResolver } from '../../shared/customer-events/ports';

/** Answers that mean "this name has no address" rather than "DNS failed". */
const noAddressCodes = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

export const dnsHostResolver: HostResolver = {
  async resolve(hostname) {
    try {
      const answers = await lookup(hostname, { all: true, verbatim: true });
      return answers.map((answer) => answer.address);
    } catch (error) {
      if (noAddressCodes.has((error as { code?: string }).code ?? '')) return [];
      throw error;
    }
  },
};

export function hostResolverSection(): () => HostResolver {
  return () => dnsHostResolver;
}
