/**
 * Meta's Marketing Messages API onboarding of a business account, read from the Graph API
 * (`GET /{waba-id}?fields=marketing_messages_onboarding_status`) and kept in memory per account for
 * a few minutes, as the messaging tier is (shared/caching/expiring-reads.ts): onboarding happens
 * once per portfolio, and every MARKETING broadcast of an `auto` account needs it. An account that
 * onboards is therefore routed to the API at most TTL later.
 *
 * And the accept's decision (`templateRouteOf`): which API a template broadcast goes through,
 * decided once per job, fail safe: a failed read means "not onboarded" (Cloud API), and is not kept.
 */
import { ExpiringReads } from '../caching/expiring-reads';
import type { CloudApiClient } from '../sending/ports';
import { marketingMessagesRoute, needsOnboardingStatus } from './marketing-messages-route';
import type { Clock, MarketingMessagesOnboarding, SenderAccount } from './ports';
import type { MaxPrice } from './template-max-price';

export const MARKETING_ONBOARDING_CACHE_TTL_MS = 5 * 60_000;

export class CachedMarketingMessagesOnboarding implements MarketingMessagesOnboarding {
  private readonly reads: ExpiringReads<string | undefined>;

  constructor(
    private readonly upstream: Pick<CloudApiClient, 'marketingMessagesOnboardingOf'>,
    private readonly clock: Clock,
    ttlMs = MARKETING_ONBOARDING_CACHE_TTL_MS,
  ) {
    this.reads = new ExpiringReads(ttlMs);
  }

  statusOf(account: Pick<SenderAccount, 'wabaId' | 'accessToken'>): Promise<string | undefined> {
    return this.reads.read(account.wabaId, this.clock.now().getTime(), () =>
      this.upstream.marketingMessagesOnboardingOf(account.wabaId, { accessToken: account.accessToken }),
    );
  }
}

/** What the accept needs to route a template broadcast. */
export interface MarketingMessagesRoutingDependencies {
  marketingMessages: MarketingMessagesOnboarding;
}

/**
 * The route as the job's (and its chunk messages') template records it: `api` only for the Marketing
 * Messages API; `maxPrice` for a template with a max price (the worker never falls back to `/messages` for it).
 */
export type TemplateRoute = { api: 'marketing_messages'; maxPrice?: MaxPrice } | Record<string, never>;

/**
 * The API a template broadcast of `sender` goes through, as the fields its job's template carries:
 * `{ api: 'marketing_messages' }`, or nothing (Cloud API, what every job before the setting meant).
 * Meta's onboarding status is read only for a MARKETING template of an `auto` account.
 *
 * @example
 * await templateRouteOf(dependencies, { ...sender, marketingMessages: 'enabled' }, 'MARKETING'); // { api: 'marketing_messages' }
 * await templateRouteOf(dependencies, sender, 'UTILITY'); // {}
 * await templateRouteOf(dependencies, { ...sender, marketingMessages: 'disabled' }, 'MARKETING', { bidAmount: '0.05' }); // { api: 'marketing_messages', maxPrice: { bidAmount: '0.05' } }
 */
export async function templateRouteOf(
  dependencies: MarketingMessagesRoutingDependencies,
  sender: Pick<SenderAccount, 'wabaId' | 'accessToken' | 'marketingMessages'>,
  category: string,
  maxPrice?: MaxPrice,
): Promise<TemplateRoute> {
  const setting = sender.marketingMessages;
  const onboardingStatus = needsOnboardingStatus(category, setting, maxPrice !== undefined)
    ? // Fail safe: an account whose status cannot be read is sent through Cloud API, which always works.
      await dependencies.marketingMessages.statusOf(sender).catch(() => undefined)
    : undefined;
  if (marketingMessagesRoute({ category, setting, onboardingStatus, maxPrice: maxPrice !== undefined }) !== 'marketing_messages') return {};
  return maxPrice === undefined ? { api: 'marketing_messages' } : { api: 'marketing_messages', maxPrice };
}
