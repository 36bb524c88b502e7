/**
 * The redirect of a tracked link (docs/OUTCOMES.md "Tracked links"): `GET {clickBaseUrl}/r/{token}`.
 * The token is checked with the link key (no store read for a forged one), the destination read
 * once (fixed at accept: never taken from the request, so never an open redirect), and a person's
 * click counted with one write; `link.clicked` follows only a click that added a fact. A count that
 * fails does not fail the redirect.
 */
import type { Clock } from '../ports/clock';
import type { CustomerEvent } from '../customer-events/ports';
import { newCustomerEvent } from '../customer-events/event-envelope';
import type { ClickLinkKeys } from './click-link-key';
import { readClickToken, type ClickReference } from './click-token';
import type { ClickCorrelations, ClickDestinations, ClickTarget } from './ports';
import { isPreviewFetcher } from './preview-fetchers';

export interface FollowLinkDependencies {
  keys: Pick<ClickLinkKeys, 'verifyingKey'>;
  destinations: ClickDestinations;
  /** OutcomeStore's `recordClick` (shared/outcomes/ports.ts), named by shape: shared/outcomes reads delivery, which reads Meta's clicks here. */
  outcomes: { recordClick(location: { jobId: string; chunkIndex: number; index: number }, at: Date): Promise<'first' | 'again' | 'unchanged'> };
  /** Meta's `click_id` of a counted click, kept so Meta's click event is not counted again (meta-link-clicks.ts). */
  correlations?: Pick<ClickCorrelations, 'remember'>;
  events?: { publish(organizationId: string, event: CustomerEvent): Promise<void> };
  /**
   * Told when a person's click could not be counted or told (the store or the queue failed after
   * their retries): the person is still sent on, and the function logs and counts it (`ClicksNotCounted`).
   */
  clickNotCounted?: (fault: unknown) => void;
  clock: Clock;
}

export interface LinkRequest {
  token: string;
  method: 'GET' | 'HEAD';
  userAgent?: string;
  /** Meta's `click_id` query parameter, when Meta added one to the link (Marketing Messages API). */
  clickId?: string;
}

/** Redirect (counted or not), or the plain not-found page. */
export type LinkAnswer = { kind: 'redirect'; url: string; counted: boolean } | { kind: 'not-found' };

/** Meta's click ids are opaque; anything longer or outside this shape is not kept. */
const CLICK_ID_SHAPE = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * Where `request.token` leads, counting the click when a person made it.
 *
 * @example
 * await followTrackedLink(dependencies, { token, method: 'GET', userAgent: 'Mozilla/5.0 …' });
 * // { kind: 'redirect', url: 'https://shop.example/p/42', counted: true }
 */
export async function followTrackedLink(dependencies: FollowLinkDependencies, request: LinkRequest): Promise<LinkAnswer> {
  const key = await dependencies.keys.verifyingKey();
  const reference = key ? readClickToken(key, request.token) : undefined;
  if (!reference) return { kind: 'not-found' };
  const now = dependencies.clock.now();
  const target = await dependencies.destinations.targetOf(reference, now);
  if (!target) return { kind: 'not-found' };
  if (request.method === 'HEAD' || isPreviewFetcher(request.userAgent)) return { kind: 'redirect', url: target.url, counted: false };
  try {
    await countClick(dependencies, reference, target, request, now);
  } catch (fault) {
    // Once the destination is known the person goes there: a 5xx would make them tap again, and a
    // count whose write applied before its answer timed out would then count a second click.
    dependencies.clickNotCounted?.(fault);
    return { kind: 'redirect', url: target.url, counted: false };
  }
  return { kind: 'redirect', url: target.url, counted: true };
}

async function countClick(
  dependencies: FollowLinkDependencies,
  reference: ClickReference,
  target: ClickTarget,
  request: LinkRequest,
  now: Date,
): Promise<void> {
  const location = { jobId: reference.jobId, chunkIndex: reference.chunkIndex, index: reference.index };
  const recorded = await dependencies.outcomes.recordClick(location, now);
  if (recorded === 'unchanged') return;
  if (recorded === 'first' && request.clickId !== undefined && CLICK_ID_SHAPE.test(request.clickId)) {
    await dependencies.correlations?.remember(request.clickId, reference, now);
  }
  await dependencies.events?.publish(target.organizationId, linkClickedEvent(reference, target, recorded === 'first', now));
}

/**
 * The `link.clicked` customer event of a counted click. Its id comes from the recipient, the
 * button and the second of the click, as the counted fact does.
 */
export function linkClickedEvent(reference: ClickReference, target: Pick<ClickTarget, 'campaignId'>, first: boolean, at: Date): CustomerEvent {
  const second = Math.floor(at.getTime() / 1000);
  return newCustomerEvent({
    type: 'link.clicked',
    sourceKey: `${reference.jobId}:${reference.index}:${reference.buttonIndex}:${second}`,
    createdAt: at,
    data: {
      jobId: reference.jobId,
      ...(target.campaignId === undefined ? {} : { campaignId: target.campaignId }),
      recipientIndex: reference.index,
      buttonIndex: reference.buttonIndex,
      first,
      source: 'redirect',
      at: at.toISOString(),
    },
  });
}
