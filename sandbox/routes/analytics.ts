/**
 * Analytics, all computed from the accepted-message log (message-events.ts), so numbers move as
 * a test or demo sends and reset with it:
 *
 * - `GET /{waba-id}?fields=analytics.start(..).end(..).granularity(..)` — sent / delivered
 *   per bucket; `conversation_analytics.…` — conversations (24-hour windows per recipient and
 *   category, as Meta counted them); `pricing_analytics.…` — per-message volume and cost.
 * - `GET /{waba-id}/template_analytics` — sent / delivered / read / clicked / cost per template
 *   and day.
 * - `GET /{template-id}/compare` — sends and block ranking of two templates.
 *
 * The sandbox delivers every accepted message and simulates no reads, clicks or blocks, so
 * `delivered` equals `sent` and `read`, `clicked` and block rates are zero. Costs use the
 * sandbox's flat rate card below (USD, not Meta's per-country prices). Buckets are UTC.
 */
import { invalidParameter, nonexistingField, requiredParameter } from '../graph-errors';
import { enumList, list, oneOf, timestamp } from './analytics-params';
import { parseFieldSpecs, renderWaba, WABA_NODE, type FieldSpec } from '../graph-listing';
import type { MessageEvent, PricingCategory } from '../message-events';
import { PRICING_CATEGORIES, PRICING_TYPES } from '../message-events';
import type { StoredAccount, StoredTemplate } from '../sandbox-state';
import { ok, route, type GraphRoute, type RouteContext } from './route-kit';

/** USD per message by pricing category, for the sandbox's cost figures. */
export const SANDBOX_RATE_CARD: Record<PricingCategory, number> = {
  MARKETING: 0.025,
  MARKETING_LITE: 0.025,
  UTILITY: 0.004,
  AUTHENTICATION: 0.0135,
  AUTHENTICATION_INTERNATIONAL: 0.0135,
  SERVICE: 0,
  REFERRAL_CONVERSION: 0,
};

const DAY_S = 86_400;
const HALF_HOUR_S = 1_800;
/** Meta's lookback limits: one year for messaging/conversation/pricing analytics, 90 days for templates. */
const ANALYTICS_LOOKBACK_S = 365 * DAY_S;
const TEMPLATE_LOOKBACK_S = 90 * DAY_S;
const CONVERSATION_WINDOW_MS = DAY_S * 1000;

type WabaContext = RouteContext<{ kind: 'waba'; owner: StoredAccount }>;
type TemplateContext = RouteContext<{ kind: 'template'; owner: StoredAccount; stored: StoredTemplate }>;
type Granularity = 'HALF_HOUR' | 'DAY' | 'MONTH';

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** Start of the UTC bucket holding `seconds`, and the start of the next one. */
function bucket(seconds: number, granularity: Granularity): { start: number; end: number } {
  if (granularity === 'HALF_HOUR') {
    const start = seconds - (seconds % HALF_HOUR_S);
    return { start, end: start + HALF_HOUR_S };
  }
  if (granularity === 'DAY') {
    const start = seconds - (seconds % DAY_S);
    return { start, end: start + DAY_S };
  }
  const date = new Date(seconds * 1000);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
  return { start, end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000 };
}

interface Range {
  start: number;
  end: number;
}

function range(spec: FieldSpec, now: number): Range {
  const start = timestamp(spec.modifiers.start, `${spec.name}.start`);
  const end = timestamp(spec.modifiers.end, `${spec.name}.end`);
  if (end <= start) throw invalidParameter(`Param ${spec.name}.end must be after ${spec.name}.start.`);
  if (start < Math.floor(now / 1000) - ANALYTICS_LOOKBACK_S) throw invalidParameter(`Param ${spec.name}.start must be within the last year.`);
  return { start, end };
}

function inRange(event: MessageEvent, { start, end }: Range): boolean {
  const seconds = Math.floor(event.at / 1000);
  return seconds >= start && seconds <= end;
}

/** Sums `metrics` of events per bucket and dimension values, in time order. */
function aggregate<D extends Record<string, string>>(
  events: MessageEvent[],
  granularity: Granularity,
  dimensionsOf: (event: MessageEvent) => D,
  metricsOf: (event: MessageEvent) => Record<string, number>,
): Array<{ start: number; end: number } & D & Record<string, number>> {
  const groups = new Map<string, { start: number; end: number } & D & Record<string, number>>();
  for (const event of events) {
    const slot = bucket(Math.floor(event.at / 1000), granularity);
    const dimensions = dimensionsOf(event);
    const key = JSON.stringify([slot.start, dimensions]);
    let group = groups.get(key);
    if (group === undefined) {
      group = { ...slot, ...dimensions } as { start: number; end: number } & D & Record<string, number>;
      groups.set(key, group);
    }
    for (const [metric, value] of Object.entries(metricsOf(event))) {
      (group as Record<string, number>)[metric] = round(((group as Record<string, number>)[metric] ?? 0) + value);
    }
  }
  return [...groups.values()].sort((a, b) => a.start - b.start);
}

function phoneFilter(spec: FieldSpec, owner: StoredAccount): Set<string> {
  const requested = list(spec.modifiers.phone_numbers)?.map((number) => number.replace(/^\+/, ''));
  const known = [...owner.phones.values()].map((phone) => phone.number.displayPhoneNumber);
  return new Set(requested === undefined || requested.length === 0 ? known : requested);
}

function messagingAnalytics(spec: FieldSpec, owner: StoredAccount, events: MessageEvent[], now: number) {
  const window = range(spec, now);
  const granularity = oneOf(spec.modifiers.granularity, ['HALF_HOUR', 'DAY', 'MONTH'] as const, `${spec.name}.granularity`);
  const phones = phoneFilter(spec, owner);
  const countries = list(spec.modifiers.country_codes)?.map((code) => code.toUpperCase());
  const productTypes = list(spec.modifiers.product_types);
  for (const type of productTypes ?? [])
    if (type !== '0' && type !== '2') throw invalidParameter(`Param ${spec.name}.product_types must be a list of {0, 2} - got ${type}.`);
  const selected = events.filter(
    (event) =>
      inRange(event, window) &&
      phones.has(event.displayPhoneNumber) &&
      (countries === undefined || countries.includes(event.country)) &&
      // 0 = notification (template) messages, 2 = customer support (free-form) messages.
      (productTypes === undefined || productTypes.includes(event.templateId === undefined ? '2' : '0')),
  );
  return {
    phone_numbers: [...phones],
    ...(countries === undefined ? {} : { country_codes: countries }),
    granularity,
    data_points: aggregate(
      selected,
      granularity,
      () => ({}),
      () => ({ sent: 1, delivered: 1 }),
    ),
  };
}

const CONVERSATION_DIMENSIONS = ['CONVERSATION_CATEGORY', 'CONVERSATION_DIRECTION', 'CONVERSATION_TYPE', 'COUNTRY', 'PHONE'] as const;
const CONVERSATION_CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'SERVICE', 'UTILITY'] as const;

/** One event per conversation opened: the first message per recipient and category in 24 hours. */
function conversationOpenings(events: MessageEvent[]): Array<MessageEvent & { conversationCategory: string }> {
  const openUntil = new Map<string, number>();
  const openings: Array<MessageEvent & { conversationCategory: string }> = [];
  for (const event of [...events].sort((a, b) => a.at - b.at)) {
    const category = event.pricingCategory.startsWith('MARKETING')
      ? 'MARKETING'
      : event.pricingCategory.startsWith('AUTHENTICATION')
        ? 'AUTHENTICATION'
        : event.pricingCategory;
    const key = `${event.phoneNumberId}\u0000${event.recipient}\u0000${category}`;
    if ((openUntil.get(key) ?? 0) > event.at) continue;
    openUntil.set(key, event.at + CONVERSATION_WINDOW_MS);
    openings.push({ ...event, conversationCategory: category });
  }
  return openings;
}

function conversationAnalytics(spec: FieldSpec, owner: StoredAccount, events: MessageEvent[], now: number) {
  const window = range(spec, now);
  const granularity = oneOf(spec.modifiers.granularity, ['HALF_HOUR', 'DAILY', 'MONTHLY'] as const, `${spec.name}.granularity`);
  const phones = phoneFilter(spec, owner);
  const metrics = enumList(spec.modifiers.metric_types, ['COST', 'CONVERSATION'] as const, `${spec.name}.metric_types`) ?? ['COST', 'CONVERSATION'];
  const dimensions = enumList(spec.modifiers.dimensions, CONVERSATION_DIMENSIONS, `${spec.name}.dimensions`) ?? [];
  const categories = enumList(spec.modifiers.conversation_categories, CONVERSATION_CATEGORIES, `${spec.name}.conversation_categories`);
  const directions = enumList(
    spec.modifiers.conversation_directions,
    ['BUSINESS_INITIATED', 'USER_INITIATED'] as const,
    `${spec.name}.conversation_directions`,
  );
  const types = enumList(spec.modifiers.conversation_types, ['FREE_ENTRY', 'FREE_TIER', 'REGULAR'] as const, `${spec.name}.conversation_types`);
  const countries = list(spec.modifiers.country_codes)?.map((code) => code.toUpperCase());
  const opened = conversationOpenings(events.filter((event) => phones.has(event.displayPhoneNumber))).filter((event) => {
    const direction = event.templateId === undefined ? 'USER_INITIATED' : 'BUSINESS_INITIATED';
    return (
      inRange(event, window) &&
      (countries === undefined || countries.includes(event.country)) &&
      (categories === undefined || (categories as string[]).includes(event.conversationCategory)) &&
      (directions === undefined || (directions as string[]).includes(direction)) &&
      (types === undefined || types.includes('REGULAR'))
    );
  });
  const dataPoints = aggregate(
    opened,
    granularity === 'DAILY' ? 'DAY' : granularity === 'MONTHLY' ? 'MONTH' : 'HALF_HOUR',
    (event) => {
      const values: Record<string, string> = {};
      if (dimensions.includes('CONVERSATION_CATEGORY'))
        values.conversation_category = (event as MessageEvent & { conversationCategory: string }).conversationCategory;
      if (dimensions.includes('CONVERSATION_DIRECTION'))
        values.conversation_direction = event.templateId === undefined ? 'USER_INITIATED' : 'BUSINESS_INITIATED';
      if (dimensions.includes('CONVERSATION_TYPE')) values.conversation_type = 'REGULAR';
      if (dimensions.includes('COUNTRY')) values.country = event.country;
      if (dimensions.includes('PHONE')) values.phone_number = event.displayPhoneNumber;
      return values;
    },
    (event) => ({
      ...(metrics.includes('CONVERSATION') ? { conversation: 1 } : {}),
      ...(metrics.includes('COST') ? { cost: SANDBOX_RATE_CARD[event.pricingCategory] } : {}),
    }),
  );
  return { data: [{ data_points: dataPoints }] };
}

/**
 * TIER is accepted (and the `tiers` filter read) so requests written for Meta work, but volume
 * tiers are not modelled: every sandbox message is in the first tier, so no tier is reported.
 */
const PRICING_DIMENSIONS = ['COUNTRY', 'PHONE', 'PRICING_CATEGORY', 'PRICING_TYPE', 'TIER'] as const;

function pricingAnalytics(spec: FieldSpec, owner: StoredAccount, events: MessageEvent[], now: number) {
  const window = range(spec, now);
  const granularity = oneOf(spec.modifiers.granularity, ['HALF_HOUR', 'DAILY', 'MONTHLY'] as const, `${spec.name}.granularity`);
  const phones = phoneFilter(spec, owner);
  const countries = list(spec.modifiers.country_codes)?.map((code) => code.toUpperCase());
  const metrics = enumList(spec.modifiers.metric_types, ['COST', 'VOLUME'] as const, `${spec.name}.metric_types`) ?? ['COST', 'VOLUME'];
  const pricingTypes = enumList(spec.modifiers.pricing_types, PRICING_TYPES, `${spec.name}.pricing_types`);
  const categories = enumList(spec.modifiers.pricing_categories, PRICING_CATEGORIES, `${spec.name}.pricing_categories`);
  const dimensions = enumList(spec.modifiers.dimensions, PRICING_DIMENSIONS, `${spec.name}.dimensions`) ?? [];
  list(spec.modifiers.tiers);
  const selected = events.filter(
    (event) =>
      inRange(event, window) &&
      phones.has(event.displayPhoneNumber) &&
      (countries === undefined || countries.includes(event.country)) &&
      (pricingTypes === undefined || pricingTypes.includes(event.pricingType)) &&
      (categories === undefined || categories.includes(event.pricingCategory)),
  );
  const dataPoints = aggregate(
    selected,
    granularity === 'DAILY' ? 'DAY' : granularity === 'MONTHLY' ? 'MONTH' : 'HALF_HOUR',
    (event) => {
      const values: Record<string, string> = {};
      if (dimensions.includes('COUNTRY')) values.country = event.country;
      if (dimensions.includes('PHONE')) values.phone = event.displayPhoneNumber;
      if (dimensions.includes('PRICING_CATEGORY')) values.pricing_category = event.pricingCategory;
      if (dimensions.includes('PRICING_TYPE')) values.pricing_type = event.pricingType;
      return values;
    },
    (event) => ({
      ...(metrics.includes('VOLUME') ? { volume: 1 } : {}),
      ...(metrics.includes('COST') ? { cost: event.pricingType === 'REGULAR' ? SANDBOX_RATE_CARD[event.pricingCategory] : 0 } : {}),
    }),
  );
  return { data: [{ data_points: dataPoints }] };
}

function readWaba(context: WabaContext) {
  const { owner } = context.node;
  const raw = context.query.get('fields');
  const specs = raw === null || raw.trim() === '' ? WABA_NODE.defaultFields.map((name) => ({ name, modifiers: {} })) : parseFieldSpecs(raw);
  const base = renderWaba(owner);
  const events = context.deps.events.forWaba(owner.account.wabaId);
  const now = context.now();
  const result: Record<string, unknown> = { id: base.id };
  for (const spec of specs) {
    if (!WABA_NODE.fields.includes(spec.name)) throw nonexistingField(spec.name, WABA_NODE.type);
    if (spec.name === 'analytics') result.analytics = messagingAnalytics(spec, owner, events, now);
    else if (spec.name === 'conversation_analytics') result.conversation_analytics = conversationAnalytics(spec, owner, events, now);
    else if (spec.name === 'pricing_analytics') result.pricing_analytics = pricingAnalytics(spec, owner, events, now);
    else if (spec.name in base) result[spec.name] = base[spec.name];
  }
  return ok(result);
}

const TEMPLATE_METRICS = ['SENT', 'DELIVERED', 'READ', 'CLICKED', 'COST'] as const;

function templateAnalytics(context: WabaContext) {
  const { owner } = context.node;
  const { query } = context;
  const start = timestamp(query.get('start'), 'start');
  const end = timestamp(query.get('end'), 'end');
  if (end <= start) throw invalidParameter('Param end must be after start.');
  if (start < Math.floor(context.now() / 1000) - TEMPLATE_LOOKBACK_S) throw invalidParameter('Param start must be within the last 90 days.');
  oneOf(query.get('granularity'), ['DAILY'] as const, 'granularity');
  const ids = list(query.get('template_ids'));
  if (ids === undefined) throw requiredParameter('template_ids');
  if (ids.length > 10) throw invalidParameter('Param template_ids must have at most 10 elements.');
  for (const id of ids) {
    const node = context.deps.state.node(id);
    if (node?.kind !== 'template' || node.owner !== owner)
      throw invalidParameter(`Param template_ids: ${id} is not a template of this WhatsApp Business Account.`);
  }
  const metrics = enumList(query.get('metric_types'), TEMPLATE_METRICS, 'metric_types') ?? ['SENT', 'DELIVERED', 'READ', 'CLICKED'];
  const events = context.deps.events.forWaba(owner.account.wabaId);

  const dataPoints: Array<Record<string, unknown>> = [];
  for (const id of ids) {
    for (let day = bucket(start, 'DAY').start; day <= end; day += DAY_S) {
      const sends = events.filter((event) => event.templateId === id && Math.floor(event.at / 1000) >= day && Math.floor(event.at / 1000) < day + DAY_S);
      const spent = round(sends.reduce((sum, event) => sum + SANDBOX_RATE_CARD[event.pricingCategory], 0));
      dataPoints.push({
        template_id: id,
        start: day,
        end: day + DAY_S,
        ...(metrics.includes('SENT') ? { sent: sends.length } : {}),
        // Every accepted message is delivered in the sandbox; no recipient reads or clicks.
        ...(metrics.includes('DELIVERED') ? { delivered: sends.length } : {}),
        ...(metrics.includes('READ') ? { read: 0 } : {}),
        ...(metrics.includes('CLICKED') ? { clicked: [] } : {}),
        ...(metrics.includes('COST')
          ? {
              cost: [
                { type: 'amount_spent', value: spent },
                { type: 'cost_per_delivered', value: sends.length === 0 ? 0 : round(spent / sends.length) },
              ],
            }
          : {}),
      });
    }
  }
  return ok({ data: [{ granularity: 'DAILY', product_type: 'cloud_api', data_points: dataPoints }] });
}

/** Meta compares a template with exactly one other of the same WABA over at most 90 days. */
function compareTemplates(context: TemplateContext) {
  const { owner, stored } = context.node;
  const { query } = context;
  const others = list(query.get('template_ids'));
  if (others === undefined) throw requiredParameter('template_ids');
  if (others.length !== 1) throw invalidParameter('Param template_ids must name exactly one template to compare with.');
  const otherId = others[0] ?? '';
  const other = context.deps.state.node(otherId);
  if (other?.kind !== 'template' || other.owner !== owner || otherId === stored.template.id) {
    throw invalidParameter(`Param template_ids: ${otherId} is not another template of the same WhatsApp Business Account.`);
  }
  const start = timestamp(query.get('start'), 'start');
  const end = timestamp(query.get('end'), 'end');
  if (end <= start) throw invalidParameter('Param end must be after start.');
  if (end - start > TEMPLATE_LOOKBACK_S) throw invalidParameter('Param start must be at most 90 days before end.');
  const ids = [stored.template.id, otherId];
  const events = context.deps.events.forWaba(owner.account.wabaId).filter((event) => inRange(event, { start, end }));
  const sends = ids.map((id) => ({ key: id, value: events.filter((event) => event.templateId === id).length }));
  return ok({
    data: [
      // No blocks happen in the sandbox, so both rates are 0 and the order is by id.
      { metric: 'BLOCK_RATE', type: 'RELATIVE', order_by_relative_metric: [...ids].sort() },
      { metric: 'MESSAGE_SENDS', type: 'NUMBER_VALUES', number_values: sends },
      { metric: 'TOP_BLOCK_REASON', type: 'STRING_VALUES', string_values: ids.map((id) => ({ key: id, value: 'UNKNOWN_BLOCK_REASON' })) },
    ],
  });
}

export const analyticsRoutes: GraphRoute[] = [
  route('waba', 'GET', null, readWaba),
  route('waba', 'GET', 'template_analytics', templateAnalytics),
  route('template', 'GET', 'compare', compareTemplates),
];
