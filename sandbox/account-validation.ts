/**
 * Checks a business account handed to the sandbox (by `POST /_sandbox/accounts` or in code)
 * and returns a deep copy, so later mutation of the caller's object cannot change what the
 * sandbox serves.
 */
import { SandboxRequestError } from './sandbox-request-error';
import {
  MARKETING_MESSAGES_ONBOARDING_STATUSES,
  TEMPLATE_CATEGORIES,
  TEMPLATE_STATUSES,
  type SandboxBusinessAccount,
  type SandboxPhoneNumber,
  type SandboxTemplate,
  type TemplateCategory,
  type TemplateStatus,
} from './sandbox-types';

type Json = Record<string, unknown>;

/** Graph object ids are numeric strings; the sandbox keeps to that so ids route unambiguously. */
const GRAPH_ID = /^\d+$/;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(message: string): never {
  throw new SandboxRequestError(400, message);
}

function text(parent: Json, key: string, path: string): string {
  const value = parent[key];
  if (typeof value !== 'string' || value.length === 0) fail(`${path} must be a non-empty string`);
  return value;
}

function graphId(parent: Json, key: string, path: string): string {
  const value = text(parent, key, path);
  if (!GRAPH_ID.test(value)) fail(`${path} must be a numeric Graph id`);
  return value;
}

function array(parent: Json, key: string, path: string): unknown[] {
  const value = parent[key];
  if (!Array.isArray(value)) fail(`${path} must be an array`);
  return value;
}

export function isTemplateStatus(value: unknown): value is TemplateStatus {
  return typeof value === 'string' && (TEMPLATE_STATUSES as readonly string[]).includes(value);
}

function parsePhoneNumber(value: unknown, path: string): SandboxPhoneNumber {
  if (!isRecord(value)) fail(`${path} must be an object`);
  const displayPhoneNumber = text(value, 'displayPhoneNumber', `${path}.displayPhoneNumber`);
  if (!/^\d{3,15}$/.test(displayPhoneNumber)) fail(`${path}.displayPhoneNumber must be 3 to 15 digits`);
  const phone: SandboxPhoneNumber = {
    id: graphId(value, 'id', `${path}.id`),
    displayPhoneNumber,
    verifiedName: text(value, 'verifiedName', `${path}.verifiedName`),
  };
  if (value.qualityRating !== undefined) phone.qualityRating = text(value, 'qualityRating', `${path}.qualityRating`);
  return phone;
}

function parseTemplate(value: unknown, path: string): SandboxTemplate {
  if (!isRecord(value)) fail(`${path} must be an object`);
  const category = value.category;
  if (typeof category !== 'string' || !(TEMPLATE_CATEGORIES as readonly string[]).includes(category)) {
    fail(`${path}.category must be one of ${TEMPLATE_CATEGORIES.join(', ')}`);
  }
  const status = value.status;
  if (!isTemplateStatus(status)) fail(`${path}.status must be one of ${TEMPLATE_STATUSES.join(', ')}`);
  const components = array(value, 'components', `${path}.components`).map((component, index) => {
    if (!isRecord(component) || typeof component.type !== 'string') {
      fail(`${path}.components[${index}] must be an object with a string type`);
    }
    return structuredClone(component);
  });
  const format = value.parameterFormat;
  if (format !== undefined && format !== 'POSITIONAL' && format !== 'NAMED') fail(`${path}.parameterFormat must be POSITIONAL or NAMED`);
  const spec = value.optimizationSpec;
  if (
    spec !== undefined &&
    (!isRecord(spec) ||
      typeof spec.bid_amount !== 'number' ||
      !(spec.bid_amount > 0) ||
      (spec.bid_strategy !== undefined && typeof spec.bid_strategy !== 'string'))
  ) {
    fail(`${path}.optimizationSpec must be { bid_amount: a positive number, bid_strategy?: string }`);
  }
  return {
    id: graphId(value, 'id', `${path}.id`),
    name: text(value, 'name', `${path}.name`),
    language: text(value, 'language', `${path}.language`),
    category: category as TemplateCategory,
    status,
    components,
    ...(format === undefined ? {} : { parameterFormat: format }),
    ...(spec === undefined ? {} : { optimizationSpec: structuredClone(spec) as { bid_amount: number; bid_strategy?: string } }),
  };
}

function requireUnique(ids: string[], what: string): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) fail(`duplicate ${what} ${id}`);
    seen.add(id);
  }
}

export function parseBusinessAccount(value: unknown): SandboxBusinessAccount {
  if (!isRecord(value)) fail('account must be a JSON object');
  const account: SandboxBusinessAccount = {
    wabaId: graphId(value, 'wabaId', 'wabaId'),
    businessId: graphId(value, 'businessId', 'businessId'),
    name: text(value, 'name', 'name'),
    accessToken: text(value, 'accessToken', 'accessToken'),
    phoneNumbers: array(value, 'phoneNumbers', 'phoneNumbers').map((phone, index) => parsePhoneNumber(phone, `phoneNumbers[${index}]`)),
    templates: array(value, 'templates', 'templates').map((template, index) => parseTemplate(template, `templates[${index}]`)),
  };
  const onboarding = value.marketingMessagesOnboardingStatus;
  if (onboarding !== undefined) {
    if (!(MARKETING_MESSAGES_ONBOARDING_STATUSES as readonly unknown[]).includes(onboarding)) {
      fail(`marketingMessagesOnboardingStatus must be one of ${MARKETING_MESSAGES_ONBOARDING_STATUSES.join(', ')}`);
    }
    account.marketingMessagesOnboardingStatus = onboarding as SandboxBusinessAccount['marketingMessagesOnboardingStatus'];
  }
  requireUnique(
    account.phoneNumbers.map((phone) => phone.id),
    'phone number id',
  );
  requireUnique(
    account.templates.map((template) => template.id),
    'template id',
  );
  requireUnique(
    account.templates.map((template) => `${template.name} (${template.language})`),
    'template',
  );
  return account;
}
