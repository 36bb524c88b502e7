/**
 * Meta's click events of the Marketing Messages API (docs/OUTCOMES.md "Meta's click events"): a
 * `messages` change whose value carries `user_actions[]` with `action_type:
 * marketing_messages_link_click` (limited availability; messages of the last 7 days only). Meta names
 * no message and no recipient, so a click is put on a recipient only through the `click_id` our
 * redirect kept at that recipient's first counted click: then it is that click, already counted,
 * and nothing is added. Any other click is published as `link.clicked` with `source: "meta"` and
 * Meta's click data, counted on no recipient.
 */
import * as v from 'valibot';
import type { CustomerEvent } from '../customer-events/ports';
import { newCustomerEvent } from '../customer-events/event-envelope';
import type { ClickCorrelations } from './ports';

export const META_LINK_CLICK = 'marketing_messages_link_click';

const clickSchema = v.object({
  action_type: v.literal(META_LINK_CLICK),
  timestamp: v.union([v.string(), v.number()]),
  marketing_messages_link_click_data: v.object({
    click_component: v.picklist(['cta', 'body']),
    product_id: v.optional(v.string()),
    click_id: v.optional(v.string()),
    tracking_token: v.optional(v.string()),
  }),
});

/** One click Meta reported. */
export interface MetaLinkClick {
  /** Meta's time (epoch seconds as Meta sends them, as an ISO time). */
  at: string;
  clickComponent: 'cta' | 'body';
  productId?: string;
  clickId?: string;
  trackingToken?: string;
}

/**
 * The link clicks of a `messages` change value; other user actions and malformed entries are left out.
 *
 * @example
 * metaLinkClicksOf({ user_actions: [{ action_type: 'marketing_messages_link_click', timestamp: '1764583200', marketing_messages_link_click_data: { click_component: 'cta', click_id: 'c1' } }] });
 * // [{ at: '2025-12-01T10:00:00.000Z', clickComponent: 'cta', clickId: 'c1' }]
 */
export function metaLinkClicksOf(value: unknown): MetaLinkClick[] {
  const actions = (value as { user_actions?: unknown } | undefined)?.user_actions;
  if (!Array.isArray(actions)) return [];
  const clicks: MetaLinkClick[] = [];
  for (const action of actions) {
    const parsed = v.safeParse(clickSchema, action);
    if (!parsed.success) continue;
    const seconds = Number(parsed.output.timestamp);
    if (!Number.isFinite(seconds)) continue;
    const data = parsed.output.marketing_messages_link_click_data;
    clicks.push({
      at: new Date(seconds * 1000).toISOString(),
      clickComponent: data.click_component,
      ...(data.product_id === undefined ? {} : { productId: data.product_id }),
      ...(data.click_id === undefined ? {} : { clickId: data.click_id }),
      ...(data.tracking_token === undefined ? {} : { trackingToken: data.tracking_token }),
    });
  }
  return clicks;
}

export interface MetaLinkClickPorts {
  correlations: Pick<ClickCorrelations, 'find'>;
  events?: { publish(organizationId: string, event: CustomerEvent): Promise<void> };
  clock: { now(): Date };
}

/**
 * Records Meta's clicks of the organization's number: a click the redirect already counted (its
 * `click_id` kept) adds nothing; any other is published as `link.clicked` (`source: "meta"`).
 * Answers how many were already counted and how many were published.
 *
 * @example
 * await recordMetaLinkClicks(ports, 'org_1', '15550001111', clicks); // { correlated: 1, published: 0 }
 */
export async function recordMetaLinkClicks(
  ports: MetaLinkClickPorts,
  organizationId: string,
  phoneNumberId: string,
  clicks: readonly MetaLinkClick[],
): Promise<{ correlated: number; published: number }> {
  let correlated = 0;
  let published = 0;
  for (const click of clicks) {
    if (click.clickId !== undefined && (await ports.correlations.find(click.clickId))) {
      correlated += 1;
      continue;
    }
    await ports.events?.publish(organizationId, metaClickEvent(phoneNumberId, click, ports.clock.now()));
    published += 1;
  }
  return { correlated, published };
}

function metaClickEvent(phoneNumberId: string, click: MetaLinkClick, now: Date): CustomerEvent {
  return newCustomerEvent({
    type: 'link.clicked',
    sourceKey: `meta:${phoneNumberId}:${click.clickId ?? `${click.at}:${click.clickComponent}:${click.productId ?? ''}:${click.trackingToken ?? ''}`}`,
    createdAt: now,
    data: {
      source: 'meta',
      phoneNumberId,
      at: click.at,
      clickComponent: click.clickComponent,
      ...(click.productId === undefined ? {} : { productId: click.productId }),
      ...(click.clickId === undefined ? {} : { clickId: click.clickId }),
      ...(click.trackingToken === undefined ? {} : { trackingToken: click.trackingToken }),
    },
  });
}
