/**
 * How Graph renders sandbox objects: field names, the `fields` query parameter (including
 * modifiers such as `analytics.start(1).end(2)`) and cursor paging (`limit`, `after`, `before`,
 * `paging.cursors`, `paging.next`).
 */
import type { PhoneState } from './account-state';
import { invalidParameter, nonexistingField } from './graph-errors';
import { formatDisplayPhoneNumber } from './phone-format';
import type { StoredAccount, StoredTemplate } from './sandbox-state';
import { parameterFormatOf } from './template-send-spec';

export type GraphObject = Record<string, unknown> & { id: string };

export interface NodeDescription {
  /** Graph's node type name, quoted in "nonexisting field" errors. */
  type: string;
  fields: readonly string[];
  defaultFields: readonly string[];
}

export const WABA_NODE: NodeDescription = {
  type: 'WhatsAppBusinessAccount',
  fields: [
    'id',
    'name',
    'currency',
    'message_template_namespace',
    'owner_business_info',
    'timezone_id',
    'account_review_status',
    'business_verification_status',
    'ownership_type',
    // The Marketing Messages API state (marketing-messages.ts), read and set as Meta names it.
    'marketing_messages_onboarding_status',
    'disable_marketing_messages_on_cloud_api',
    // Computed from the accepted-message log with the modifiers the request gives (analytics.ts).
    'analytics',
    'conversation_analytics',
    'pricing_analytics',
  ],
  defaultFields: ['id', 'name'],
};

export const PHONE_NUMBER_NODE: NodeDescription = {
  type: 'WhatsAppBusinessPhoneNumber',
  fields: [
    'id',
    'display_phone_number',
    'verified_name',
    'status',
    'quality_rating',
    'code_verification_status',
    'name_status',
    'platform_type',
    'throughput',
    'messaging_limit_tier',
    'whatsapp_business_manager_messaging_limit',
    'account_mode',
    'is_pin_enabled',
    'conversational_automation',
    'webhook_configuration',
    'new_display_name',
    'new_name_status',
    'search_visibility',
    'is_official_business_account',
  ],
  defaultFields: ['id', 'display_phone_number', 'verified_name', 'status', 'quality_rating', 'code_verification_status', 'platform_type', 'throughput'],
};

export const TEMPLATE_NODE: NodeDescription = {
  type: 'WhatsAppMessageTemplate',
  fields: [
    'id',
    'name',
    'language',
    'status',
    'category',
    'components',
    'parameter_format',
    'library_template_name',
    'quality_score',
    'rejected_reason',
    'message_send_ttl_seconds',
    'optimization_spec',
  ],
  // library_template_name is rendered only for library templates, where Meta lists it by default.
  defaultFields: ['id', 'name', 'language', 'status', 'category', 'components', 'parameter_format', 'library_template_name'],
};

/** Meta's standard tier is 80 messages/s; numbers upgraded beyond it report HIGH. */
const STANDARD_THROUGHPUT = 80;

export function renderWaba(stored: StoredAccount): GraphObject {
  const { account, marketing, configuration } = stored;
  return {
    id: account.wabaId,
    name: account.name,
    currency: 'USD',
    message_template_namespace: `sandbox_${account.wabaId}`,
    owner_business_info: { id: account.businessId, name: account.name },
    // Meta's timezone id 1 is America/Los_Angeles; the sandbox reports analytics in UTC regardless.
    timezone_id: configuration.timezoneId ?? '1',
    account_review_status: 'APPROVED',
    business_verification_status: 'VERIFIED',
    ownership_type: 'SELF_OWNED',
    marketing_messages_onboarding_status: marketing.onboardingStatus,
    disable_marketing_messages_on_cloud_api: marketing.disableOnCloudApi,
  };
}

export function renderPhoneNumber(state: PhoneState, throughputPerSecond: number, messagingLimit = 'TIER_UNLIMITED'): GraphObject {
  const phone = state.number;
  const { configuration } = state;
  return {
    id: phone.id,
    display_phone_number: formatDisplayPhoneNumber(phone.displayPhoneNumber),
    verified_name: phone.verifiedName,
    // A deregistered number stays in the WABA but cannot send until registered again.
    status: state.registered ? 'CONNECTED' : 'DISCONNECTED',
    quality_rating: phone.qualityRating ?? 'GREEN',
    code_verification_status: 'VERIFIED',
    name_status: 'APPROVED',
    platform_type: 'CLOUD_API',
    throughput: { level: throughputPerSecond > STANDARD_THROUGHPUT ? 'HIGH' : 'STANDARD' },
    // Deprecated by Meta for the portfolio-level field below; kept as it always answered.
    messaging_limit_tier: 'TIER_UNLIMITED',
    whatsapp_business_manager_messaging_limit: messagingLimit,
    account_mode: 'LIVE',
    is_pin_enabled: state.twoStepPin !== undefined,
    conversational_automation: { ...structuredClone(state.automation), id: phone.id },
    ...(configuration.webhookConfiguration === undefined
      ? {}
      : { webhook_configuration: { phone_number: configuration.webhookConfiguration.override_callback_uri } }),
    ...(configuration.newDisplayName === undefined ? {} : { new_display_name: configuration.newDisplayName, new_name_status: 'PENDING_REVIEW' }),
    search_visibility: configuration.searchVisibility ?? 'VISIBLE',
    is_official_business_account: false,
  };
}

export function renderTemplate(stored: StoredTemplate): GraphObject {
  const { template, info } = stored;
  return {
    id: template.id,
    name: template.name,
    language: template.language,
    status: template.status,
    category: template.category,
    components: structuredClone(template.components),
    parameter_format: parameterFormatOf(stored),
    ...(info.libraryTemplateName === undefined ? {} : { library_template_name: info.libraryTemplateName }),
    // UNKNOWN until rated: the sandbox rates a template only when told to (POST /_sandbox/webhooks/template-quality).
    quality_score: { score: info.qualityScore ?? 'UNKNOWN', date: Math.floor(info.createdAt / 1000) },
    rejected_reason: template.status === 'REJECTED' ? 'INVALID_FORMAT' : 'NONE',
    ...(info.messageSendTtlSeconds === undefined ? {} : { message_send_ttl_seconds: info.messageSendTtlSeconds }),
    ...(template.optimizationSpec === undefined ? {} : { optimization_spec: structuredClone(template.optimizationSpec) }),
  };
}

/** One entry of `fields`: `analytics.start(1).end(2).granularity(DAY)` or `throughput{level}`. */
export interface FieldSpec {
  name: string;
  /** Raw argument text per modifier, e.g. `{ start: '1', phone_numbers: '["1555"]' }`. */
  modifiers: Record<string, string>;
}

/**
 * Parses `fields` at top-level commas. A sub-selection such as `throughput{level}` selects the
 * whole field (the sandbox's nested objects are tiny); modifiers are kept for the fields that
 * take them (the WABA's analytics fields).
 */
export function parseFieldSpecs(raw: string): FieldSpec[] {
  const specs: FieldSpec[] = [];
  let index = 0;
  const fail = (what: string): never => {
    throw invalidParameter(`Syntax error "${what}" at character ${index} in fields=${raw}`);
  };
  const skipSpaces = () => {
    while (raw[index] === ' ') index += 1;
  };
  /** Text up to the bracket matching the one at `index`, which is consumed with it. */
  const balanced = (open: string, close: string): string => {
    let depth = 0;
    let quoted = false;
    const start = index + 1;
    for (; index < raw.length; index += 1) {
      const char = raw[index];
      if (char === '"') quoted = !quoted;
      if (quoted) continue;
      if (char === open) depth += 1;
      else if (char === close) {
        depth -= 1;
        if (depth === 0) {
          index += 1;
          return raw.slice(start, index - 1);
        }
      }
    }
    return fail(`Expected ${close}`);
  };
  const identifier = (): string => {
    const match = /^[A-Za-z0-9_]+/.exec(raw.slice(index));
    if (match === null) return fail(`Expected a field name`);
    index += match[0].length;
    return match[0];
  };

  while (index < raw.length) {
    skipSpaces();
    if (raw[index] === ',') {
      index += 1;
      continue;
    }
    if (index >= raw.length) break;
    const spec: FieldSpec = { name: identifier(), modifiers: {} };
    while (raw[index] === '.') {
      index += 1;
      const modifier = identifier();
      if (raw[index] !== '(') fail('Expected (');
      spec.modifiers[modifier] = balanced('(', ')');
    }
    if (raw[index] === '{') balanced('{', '}');
    skipSpaces();
    if (index < raw.length && raw[index] !== ',') fail(`Unexpected ${raw[index] ?? ''}`);
    specs.push(spec);
  }
  return specs;
}

/** Field names from `fields` (all known to the node), the node's defaults when absent. */
export function parseFields(raw: string | null, node: NodeDescription): readonly string[] {
  if (raw === null || raw.trim() === '') return node.defaultFields;
  const names = parseFieldSpecs(raw).map((spec) => spec.name);
  for (const name of names) {
    if (!node.fields.includes(name)) throw nonexistingField(name, node.type);
  }
  return names.includes('id') ? names : ['id', ...names];
}

export function selectFields(object: GraphObject, fields: readonly string[]): GraphObject {
  const selected: GraphObject = { id: object.id };
  for (const field of fields) {
    if (field in object) selected[field] = object[field];
  }
  return selected;
}

export interface GraphPage<T = GraphObject> {
  data: T[];
  paging?: { cursors: { before: string; after: string }; next?: string; previous?: string };
}

const DEFAULT_LIMIT = 25;

function encodeCursor(key: string): string {
  return Buffer.from(key).toString('base64url');
}

function cursorIndex<T>(items: readonly T[], cursor: string, param: string, keyOf: (item: T) => string): number {
  const key = Buffer.from(cursor, 'base64url').toString();
  const index = items.findIndex((item) => keyOf(item) === key);
  if (index < 0) throw invalidParameter(`The ${param} cursor is invalid.`);
  return index;
}

export interface PageOptions<T> {
  /** What a cursor encodes; the object id by default. */
  keyOf?: (item: T) => string;
  /** Largest `limit` the edge accepts (e.g. 25 for QR codes); larger values are an error. */
  maxLimit?: number;
  defaultLimit?: number;
}

/**
 * One page of `items` per `limit`/`after`/`before`. `next`/`previous` are present only when
 * there is such a page, which is how Graph clients know to stop.
 */
export function paginate<T extends Record<string, unknown> = GraphObject>(
  items: readonly T[],
  query: URLSearchParams,
  pageUrl: URL,
  options: PageOptions<T> = {},
): GraphPage<T> {
  const keyOf = options.keyOf ?? ((item: T) => String(item.id));
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? (options.defaultLimit ?? DEFAULT_LIMIT) : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1) throw invalidParameter('Param limit must be a positive integer.');
  if (options.maxLimit !== undefined && limit > options.maxLimit) {
    throw invalidParameter(`Param limit must be at most ${options.maxLimit}.`);
  }

  const after = query.get('after');
  const before = query.get('before');
  let start = 0;
  let end = Math.min(items.length, limit);
  if (after !== null) {
    start = cursorIndex(items, after, 'after', keyOf) + 1;
    end = Math.min(items.length, start + limit);
  } else if (before !== null) {
    end = cursorIndex(items, before, 'before', keyOf);
    start = Math.max(0, end - limit);
  }

  const data = items.slice(start, end);
  const first = data[0];
  const last = data[data.length - 1];
  if (first === undefined || last === undefined) return { data };

  const linkTo = (param: 'after' | 'before', cursor: string): string => {
    const url = new URL(pageUrl);
    url.searchParams.delete('after');
    url.searchParams.delete('before');
    url.searchParams.set('limit', String(limit));
    url.searchParams.set(param, cursor);
    return url.toString();
  };
  const cursors = { before: encodeCursor(keyOf(first)), after: encodeCursor(keyOf(last)) };
  return {
    data,
    paging: {
      cursors,
      ...(end < items.length ? { next: linkTo('after', cursors.after) } : {}),
      ...(start > 0 ? { previous: linkTo('before', cursors.before) } : {}),
    },
  };
}
