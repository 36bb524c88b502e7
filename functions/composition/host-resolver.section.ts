/**
 * DNS for the webhook url checks (shared/customer-events/webhook-url.ts): the system resolver's
 * `lookup` with every address, v4 and v6, as the HTTP client would see them.
 */
import { lookup } from 'node:dns/promises';
import type { HostResolver } from '../../shared/customer-events/ports';

export const dnsHostResolver: HostResolver = {
  async resolve(hostname) {
    try {
      const answers = await lookup(hostname, { all: true, verbatim: true });
      return answers.map((answer) => answer.address);
    } catch {
      // No such name, no records, or DNS could not answer now: either way there is no address to
      // check, and the registration is refused (400) rather than failed (a retry may succeed).
      return [];
    }
  },
};

export function hostResolverSection(): () => HostResolver {
  return () => dnsHostResolver;
}
