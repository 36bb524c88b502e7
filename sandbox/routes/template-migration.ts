/**
 * `POST /{destination-waba-id}/migrate_message_templates`: recreates a source WABA's approved
 * templates in the destination, one page per call (`page_number`, zero-based).
 *
 * Meta's rules: both WABAs must belong to the same business; only APPROVED templates (with a
 * GREEN or UNKNOWN quality score — the sandbox never lowers one) are eligible; a template whose
 * name + language the destination already has fails with a reason instead of failing the call.
 * The answer is `{ migrated_templates: [source ids], failed_templates: { source id: reason } }`.
 *
 * Meta pages by 500; the sandbox pages by `templateMigrationPageSize` (default 5) so paging can
 * be exercised with small fixtures. `count` overrides it per request, as at Meta.
 */
import { invalidParameter } from '../graph-errors';
import { templateKey, type StoredAccount } from '../sandbox-state';
import { DELETED_NAME_RESERVATION_MS, storedTemplates } from './templates';
import { ok, route, type GraphRoute, type RouteContext } from './route-kit';

const MAX_COUNT = 500;

type WabaContext = RouteContext<{ kind: 'waba'; owner: StoredAccount }>;

function migrate(context: WabaContext) {
  const { state } = context.deps;
  const destination = context.node.owner;
  const params = context.params();
  const sourceId = params.string('source_waba_id', { pattern: /^\d+$/, patternHint: 'must be a WhatsApp Business Account ID' });
  const pageNumber = params.optionalInteger('page_number', { min: 0 }) ?? 0;
  const pageSize = params.optionalInteger('count', { min: 1, max: MAX_COUNT }) ?? context.deps.migrationPageSize;
  const requestedIds = params.optionalStringArray('template_ids', { min: 1, max: MAX_COUNT });

  const source = state.account(sourceId);
  if (source === undefined || source === destination || source.account.businessId !== destination.account.businessId) {
    throw invalidParameter(
      source === destination
        ? 'Param source_waba_id must differ from the destination WhatsApp Business Account.'
        : `Param source_waba_id must be a WhatsApp Business Account owned by the same business as ${destination.account.wabaId}.`,
    );
  }

  const failed: Record<string, string> = {};
  let candidates = storedTemplates(source);
  if (requestedIds !== undefined) {
    const byId = new Map(candidates.map((stored) => [stored.template.id, stored]));
    for (const id of requestedIds) {
      if (!byId.has(id)) failed[id] = 'Template does not exist in the source WhatsApp Business Account';
    }
    candidates = requestedIds.flatMap((id) => {
      const stored = byId.get(id);
      return stored === undefined ? [] : [stored];
    });
  }
  // Stable order across calls, so pages neither overlap nor skip when run in parallel.
  const eligible = candidates
    .filter((stored) => {
      if (stored.template.status === 'APPROVED') return true;
      if (requestedIds !== undefined) failed[stored.template.id] = `Only APPROVED templates can be migrated; this one is ${stored.template.status}`;
      return false;
    })
    .sort((a, b) => a.template.id.length - b.template.id.length || a.template.id.localeCompare(b.template.id));
  const page = eligible.slice(pageNumber * pageSize, (pageNumber + 1) * pageSize);

  const migrated: string[] = [];
  const now = state.now();
  for (const { template, info } of page) {
    const deletedAt = destination.deletedTemplates.get(templateKey(template.name, template.language));
    if (state.findTemplate(destination, template.name, template.language) !== undefined) {
      failed[template.id] = `A template named ${template.name} in ${template.language} already exists in the destination WhatsApp Business Account`;
      continue;
    }
    if (deletedAt !== undefined && now - deletedAt < DELETED_NAME_RESERVATION_MS) {
      failed[template.id] = `The ${template.language} content of ${template.name} is still being deleted in the destination WhatsApp Business Account`;
      continue;
    }
    state.addTemplate(
      destination,
      {
        id: state.allocateId(),
        name: template.name,
        language: template.language,
        category: template.category,
        status: 'APPROVED',
        components: structuredClone(template.components),
      },
      {
        createdAt: now,
        approvedEdits: [],
        ...(info.libraryTemplateName === undefined ? {} : { libraryTemplateName: info.libraryTemplateName }),
        ...(info.parameterFormat === undefined ? {} : { parameterFormat: info.parameterFormat }),
      },
    );
    migrated.push(template.id);
  }
  return ok({ migrated_templates: migrated, failed_templates: failed });
}

export const templateMigrationRoutes: GraphRoute[] = [route('waba', 'POST', 'migrate_message_templates', migrate)];
