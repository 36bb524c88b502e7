/**
 * How Graph renders sandbox objects: field names, the `fields` query parameter and cursor
 * paging (`limit`, `after`, `before`, `paging.cursors`, `paging.next`).
 */
import { invalidParameter, nonexistingField } from './graph-errors';
import { formatDisplayPhoneNumber } from './phone-format';
import type { SandboxBusinessAccount, SandboxPhoneNumber, SandboxTemplate } from './sandbox-types';

type GraphObject = Record<string, unknown> & { id: string };

export interface NodeDescription {
  /** Graph's node type name, quoted in "nonexisting field" errors. */
  type: string;
  fields: readonly string[];
  defaultFields: readonly string[];
}

export const WABA_NODE: NodeDescription = {
  type: 'WhatsAppBusinessAccount',
  fields: ['id', 'name', 'currency', 'message_template_namespace', 'owner_business_info'],
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
    'account_mode',
  ],
  defaultFields: [
    'id',
    'display_phone_number',
    'verified_name',
    'status',
    'quality_rating',
    'code_verification_status',
    'platform_type',
    'throughput',
  ],
};

export const TEMPLATE_NODE: NodeDescription = {
  type: 'WhatsAppMessageTemplate',
  fields: ['id', 'name', 'language', 'status', 'category', 'components', 'parameter_format'],
  defaultFields: ['id', 'name', 'language', 'status', 'category', 'components', 'parameter_format'],
};

/** Meta's standard tier is 80 messages/s; numbers upgraded beyond it report HIGH. */
const STANDARD_THROUGHPUT = 80;

export function renderWaba(account: SandboxBusinessAccount): GraphObject {
  return {
    id: account.wabaId,
    name: account.name,
    currency: 'USD',
    message_template_namespace: `sandbox_${account.wabaId}`,
    owner_business_info: { id: account.businessId, name: account.name },
  };
}

export function renderPhoneNumber(phone: SandboxPhoneNumber, throughputPerSecond: number): GraphObject {
  return {
    id: phone.id,
    display_phone_number: formatDisplayPhoneNumber(phone.displayPhoneNumber),
    verified_name: phone.verifiedName,
    status: 'CONNECTED',
    quality_rating: phone.qualityRating ?? 'GREEN',
    code_verification_status: 'VERIFIED',
    name_status: 'APPROVED',
    platform_type: 'CLOUD_API',
    throughput: { level: throughputPerSecond > STANDARD_THROUGHPUT ? 'HIGH' : 'STANDARD' },
    messaging_limit_tier: 'TIER_UNLIMITED',
    account_mode: 'LIVE',
  };
}

export function renderTemplate(template: SandboxTemplate): GraphObject {
  const positional = template.components.every(
    (component) => typeof component.text !== 'string' || !/\{\{\s*[A-Za-z_]/.test(component.text),
  );
  return {
    id: template.id,
    name: template.name,
    language: template.language,
    status: template.status,
    category: template.category,
    components: structuredClone(template.components),
    parameter_format: positional ? 'POSITIONAL' : 'NAMED',
  };
}

/**
 * Splits `fields` at top-level commas; a sub-selection such as `throughput{level}` selects the
 * whole field (the sandbox's nested objects are tiny).
 */
export function parseFields(raw: string | null, node: NodeDescription): readonly string[] {
  if (raw === null || raw.trim() === '') return node.defaultFields;
  const fields: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of raw) {
    if (char === '{') depth += 1;
    else if (char === '}') depth = Math.max(0, depth - 1);
    else if (char === ',' && depth === 0) {
      fields.push(current);
      current = '';
      continue;
    }
    if (depth === 0 && char !== '}') current += char;
  }
  fields.push(current);
  const names = fields.map((field) => field.trim()).filter((field) => field.length > 0);
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

export interface GraphPage {
  data: GraphObject[];
  paging?: { cursors: { before: string; after: string }; next?: string; previous?: string };
}

const DEFAULT_LIMIT = 25;

function encodeCursor(id: string): string {
  return Buffer.from(id).toString('base64url');
}

function cursorIndex(items: readonly GraphObject[], cursor: string, param: string): number {
  const id = Buffer.from(cursor, 'base64url').toString();
  const index = items.findIndex((item) => item.id === id);
  if (index < 0) throw invalidParameter(`The ${param} cursor is invalid.`);
  return index;
}

/**
 * One page of `items` per `limit`/`after`/`before`. `next`/`previous` are present only when
 * there is such a page, which is how Graph clients know to stop.
 */
export function paginate(items: readonly GraphObject[], query: URLSearchParams, pageUrl: URL): GraphPage {
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? DEFAULT_LIMIT : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1) throw invalidParameter('Param limit must be a positive integer.');

  const after = query.get('after');
  const before = query.get('before');
  let start = 0;
  let end = Math.min(items.length, limit);
  if (after !== null) {
    start = cursorIndex(items, after, 'after') + 1;
    end = Math.min(items.length, start + limit);
  } else if (before !== null) {
    end = cursorIndex(items, before, 'before');
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
  const cursors = { before: encodeCursor(first.id), after: encodeCursor(last.id) };
  return {
    data,
    paging: {
      cursors,
      ...(end < items.length ? { next: linkTo('after', cursors.after) } : {}),
      ...(start > 0 ? { previous: linkTo('before', cursors.before) } : {}),
    },
  };
}
