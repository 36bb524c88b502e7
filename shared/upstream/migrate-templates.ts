/**
 * POST /upstream/wabas/{wabaId}/templates/migrate: Meta's template migration
 * (`POST /{destination}/migrate_message_templates { source_waba_id, page_number }`), with the
 * contract's answer `{ migrated_templates: [{id, name}], failed_templates: [{id, name, reason}] }`.
 *
 * Meta only migrates between accounts of the same Meta business. The wrapper requires the source
 * to be connected to the caller's organization too (an organization must not copy another
 * organization's templates), with the same `businessId` as the destination, and readable with its
 * own credentials; otherwise 400 before Meta is asked to migrate anything.
 *
 * Meta answers `migrated_templates` as template ids and `failed_templates` as a map of template id →
 * free-text reason; names come from the source's template list (read first; it also proves the
 * source accessible) and, for ids Meta gives from the destination, from the destination's list.
 * Reasons become codes: "Template name already exists" → TEMPLATE_NAME_ALREADY_EXISTS, others upper
 * snake case ("Incorrect category" → INCORRECT_CATEGORY).
 */
import * as v from 'valibot';
import { parseRequest } from '../http/validation';
import { callGraph, listAllPages } from './call-upstream';
import { MigrationSourceNotAllowedError, UpstreamRejectedError } from './errors';
import { accessTokenOf, resolveBusinessAccount } from './resolve-target';
import type { UpstreamWrapperDependencies } from './ports';
import type { BusinessAccount } from '../tenancy/tenancy-entities';

export const migrateTemplatesSchema = v.object({
  sourceWabaId: v.pipe(v.string(), v.regex(/^(?!\.+$)[A-Za-z0-9._-]{1,128}$/, 'must be a business account id')),
  pageNumber: v.pipe(v.number(), v.integer('must be an integer'), v.minValue(0, "must be 0 or more (pages are zero-indexed, as Meta's)")),
});

export interface MigrationResult {
  migrated_templates: Array<{ id: string; name: string }>;
  failed_templates: Array<{ id?: string; name: string; reason: string }>;
}

/** A failure reason as a code: known phrases by name, anything else in upper snake case. */
export function reasonCode(reason: string): string {
  const text = reason.trim();
  if (/^[A-Z0-9_]+$/.test(text)) return text;
  if (/already exist|duplicate|same name/i.test(text)) return 'TEMPLATE_NAME_ALREADY_EXISTS';
  const code = text
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
    .slice(0, 64);
  return code || 'UNKNOWN';
}

/** Operation name of every Graph call here, for logs. */
const OPERATION = 'migrateTemplates';

type NamedTemplate = { id?: unknown; name?: unknown };

/** Meta's failed_templates: a map id → reason (documented), or a list of {id|name, reason}. */
function failuresOf(value: unknown): Array<{ id?: string; name?: string; reason: string }> {
  if (Array.isArray(value)) {
    return value.map((item) => {
      const entry = (item ?? {}) as Record<string, unknown>;
      return {
        id: entry.id === undefined ? undefined : String(entry.id),
        name: typeof entry.name === 'string' ? entry.name : undefined,
        reason: String(entry.reason ?? entry.failure_reason ?? 'UNKNOWN'),
      };
    });
  }
  if (value && typeof value === 'object') return Object.entries(value).map(([id, reason]) => ({ id, reason: String(reason) }));
  return [];
}

/** Every template of an account as {id, name}, read with the account's own credentials. */
function listTemplateNames(deps: UpstreamWrapperDependencies, account: BusinessAccount, accessToken: string): Promise<NamedTemplate[]> {
  return listAllPages<NamedTemplate>(
    deps,
    { account, operation: OPERATION, verifiedNode: true },
    {
      path: `/${encodeURIComponent(account.wabaId)}/message_templates`,
      query: { fields: 'id,name', limit: '100' },
      accessToken,
    },
  );
}

export async function migrateTemplates(
  deps: UpstreamWrapperDependencies,
  input: { organizationId: string; wabaId: string | undefined; body: unknown },
): Promise<MigrationResult> {
  const destination = await resolveBusinessAccount(deps, input.organizationId, input.wabaId);
  const body = parseRequest(migrateTemplatesSchema, input.body ?? {});
  const notAllowed = () =>
    new MigrationSourceNotAllowedError(`sourceWabaId ${body.sourceWabaId} is not owned by the same business as ${destination.wabaId} or not accessible`);
  if (body.sourceWabaId === destination.wabaId) throw new MigrationSourceNotAllowedError('sourceWabaId must differ from the destination business account');
  const source = await deps.tenancy.repository.getBusinessAccount(input.organizationId, body.sourceWabaId);
  if (!source || source.businessId !== destination.businessId || source.status !== 'active') throw notAllowed();

  const destinationToken = await accessTokenOf(deps, destination);
  const sourceToken = await accessTokenOf(deps, source).catch(() => {
    throw notAllowed();
  });
  let sourceTemplates: NamedTemplate[];
  try {
    sourceTemplates = await listTemplateNames(deps, source, sourceToken);
  } catch (error) {
    if (error instanceof UpstreamRejectedError) throw notAllowed();
    throw error;
  }

  const response = await callGraph(
    deps,
    { account: destination, operation: OPERATION, verifiedNode: true },
    {
      method: 'POST',
      path: `/${encodeURIComponent(destination.wabaId)}/migrate_message_templates`,
      json: { source_waba_id: source.wabaId, page_number: body.pageNumber },
      accessToken: destinationToken,
    },
  );
  const answer = (response.body ?? {}) as { migrated_templates?: unknown; failed_templates?: unknown };

  const names = new Map<string, string>();
  const remember = (templates: NamedTemplate[]) => {
    for (const template of templates) if (template.id !== undefined && typeof template.name === 'string') names.set(String(template.id), template.name);
  };
  remember(sourceTemplates);
  const migratedIds = (Array.isArray(answer.migrated_templates) ? answer.migrated_templates : []).map((item) =>
    typeof item === 'object' && item !== null ? (item as NamedTemplate) : { id: item },
  );
  remember(migratedIds);
  const failures = failuresOf(answer.failed_templates);
  const unnamed = [...migratedIds.map((item) => String(item.id)), ...failures.filter((failure) => !failure.name).map((failure) => failure.id)].filter(
    (id): id is string => id !== undefined && !names.has(id),
  );
  if (unnamed.length > 0) {
    // Ids of the copies live in the destination; its list names them.
    remember(await listTemplateNames(deps, destination, destinationToken));
  }
  return {
    migrated_templates: migratedIds.map((item) => ({ id: String(item.id), name: names.get(String(item.id)) ?? '' })),
    failed_templates: failures.map((failure) => ({
      ...(failure.id === undefined ? {} : { id: failure.id }),
      name: failure.name ?? (failure.id !== undefined ? names.get(failure.id) : undefined) ?? '',
      reason: reasonCode(failure.reason),
    })),
  };
}
