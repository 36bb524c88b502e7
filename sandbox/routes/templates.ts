/**
 * Message templates: list, create (from components or from the Template Library), read, edit
 * and delete. Created templates start PENDING, as at Meta, and are reviewed through
 * `POST /_sandbox/templates/{id}/status`; library templates are approved on creation because
 * their content is pre-approved.
 *
 * Meta's rules enforced here: unique name + language per WABA (2388024), a deleted name +
 * language is reserved for four weeks (2388023), only APPROVED / REJECTED / PAUSED templates
 * can be edited, an approved template's category cannot change and it may be edited once per
 * 24 hours and ten times per 30 days; every edit sends the template back to review (PENDING).
 */
import type { TemplateInfo } from '../account-state';
import { invalidParameter, templateAlreadyExists, templateLanguageBeingDeleted, userFacingError } from '../graph-errors';
import { paginate, parseFields, renderTemplate, selectFields, TEMPLATE_NODE } from '../graph-listing';
import type { GraphParams, ParamReader } from '../request-params';
import { templateKey, type SandboxState, type StoredAccount, type StoredTemplate } from '../sandbox-state';
import type { SandboxTemplate, TemplateCategory, TemplateStatus } from '../sandbox-types';
import { messageSendTtl, parameterFormat, templateCategory, templateComponents, templateLanguage, templateName } from '../template-validation';
import { libraryTemplateComponents } from './template-library';
import { ok, route, SUCCESS, type GraphRoute } from './route-kit';

const DAY_MS = 86_400_000;
/** Meta reserves a deleted template's name + language for four weeks. */
export const DELETED_NAME_RESERVATION_MS = 28 * DAY_MS;
const EDITABLE_STATUSES: readonly TemplateStatus[] = ['APPROVED', 'REJECTED', 'PAUSED'];
const APPROVED_EDITS_PER_30_DAYS = 10;

function matchesFilter(value: string, filter: string | null): boolean {
  if (filter === null || filter === '') return true;
  return filter
    .split(',')
    .map((entry) => entry.trim().toUpperCase())
    .includes(value.toUpperCase());
}

/** The checks every new template goes through, whichever way it is created (or migrated). */
export function assertNameAvailable(state: SandboxState, owner: StoredAccount, name: string, language: string): void {
  if (state.findTemplate(owner, name, language) !== undefined) throw templateAlreadyExists(language);
  const deletedAt = owner.deletedTemplates.get(templateKey(name, language));
  if (deletedAt !== undefined && state.now() - deletedAt < DELETED_NAME_RESERVATION_MS) throw templateLanguageBeingDeleted(language);
}

export function storedTemplates(owner: StoredAccount): StoredTemplate[] {
  return owner.account.templates.flatMap((template) => {
    const stored = owner.templatesByNameAndLanguage.get(templateKey(template.name, template.language));
    return stored === undefined ? [] : [stored];
  });
}

function flowLookup(owner: StoredAccount) {
  return ({ id, name }: { id?: string; name?: string }) =>
    [...owner.flows.values()].some((flow) => (id === undefined || flow.id === id) && (name === undefined || flow.name === name));
}

function createTemplate(state: SandboxState, owner: StoredAccount, params: GraphParams) {
  const name = templateName(params);
  const language = templateLanguage(params);
  const category = templateCategory(params);
  params.optionalBoolean('allow_category_change');
  const format = parameterFormat(params);
  const ttl = messageSendTtl(params, category);
  const library = params.optionalString('library_template_name');

  let components: Array<Record<string, unknown>>;
  let status: TemplateStatus = 'PENDING';
  if (library !== undefined) {
    components = libraryTemplateComponents(params, library, language, category);
    // Library content is pre-approved; only the business's own inputs are added to it.
    status = 'APPROVED';
  } else {
    components = templateComponents(params, { category, format: format ?? 'POSITIONAL', flowExists: flowLookup(owner) });
  }
  assertNameAvailable(state, owner, name, language);

  const template: SandboxTemplate = { id: state.allocateId(), name, language, category, status, components };
  const info: TemplateInfo = {
    createdAt: state.now(),
    approvedEdits: [],
    ...(library === undefined ? {} : { libraryTemplateName: library }),
    ...(format === undefined ? {} : { parameterFormat: format }),
    ...(ttl === undefined ? {} : { messageSendTtlSeconds: ttl }),
  };
  state.addTemplate(owner, template, info);
  return ok({ id: template.id, status, category });
}

/** Meta's limit on editing approved templates, checked before anything changes. */
function assertEditAllowed(stored: StoredTemplate, newCategory: TemplateCategory | undefined, now: number): void {
  const { template, info } = stored;
  if (!EDITABLE_STATUSES.includes(template.status)) {
    throw userFacingError(
      100,
      'Template Cannot Be Edited',
      `Only APPROVED, REJECTED or PAUSED templates can be edited; ${template.name} (${template.language}) is ${template.status}.`,
    );
  }
  if (template.status !== 'APPROVED') return;
  if (newCategory !== undefined && newCategory !== template.category) {
    throw userFacingError(100, "Category Can't Be Edited", `The category of an approved template can't be changed; ${template.name} is ${template.category}.`);
  }
  info.approvedEdits = info.approvedEdits.filter((at) => now - at < 30 * DAY_MS);
  if (info.approvedEdits.some((at) => now - at < DAY_MS)) {
    throw userFacingError(100, 'Edit Limit Reached', 'An approved template can be edited once in 24 hours. Try again later.');
  }
  if (info.approvedEdits.length >= APPROVED_EDITS_PER_30_DAYS) {
    throw userFacingError(100, 'Edit Limit Reached', `An approved template can be edited ${APPROVED_EDITS_PER_30_DAYS} times in 30 days. Try again later.`);
  }
}

function editTemplate(state: SandboxState, owner: StoredAccount, stored: StoredTemplate, params: GraphParams) {
  const { template } = stored;
  // The YAML's example repeats name and language; they identify the template and cannot change.
  for (const key of ['name', 'language'] as const) {
    const given = params.optionalString(key);
    if (given !== undefined && given !== template[key]) throw invalidParameter(`Param ${key} cannot be changed by editing a template.`);
  }
  const category = params.has('category') ? templateCategory(params) : undefined;
  if (!params.has('components') && category === undefined && !params.has('message_send_ttl_seconds') && !params.has('parameter_format')) {
    throw invalidParameter('At least one of components, category, message_send_ttl_seconds, parameter_format is required.');
  }
  const effectiveCategory = category ?? template.category;
  const format = parameterFormat(params) ?? stored.info.parameterFormat;
  const components = params.has('components')
    ? templateComponents(params, { category: effectiveCategory, format: format ?? 'POSITIONAL', flowExists: flowLookup(owner) })
    : undefined;
  const ttl = messageSendTtl(params, effectiveCategory);
  const now = state.now();
  assertEditAllowed(stored, category, now);

  if (template.status === 'APPROVED') stored.info.approvedEdits.push(now);
  if (components !== undefined) state.setTemplateComponents(stored, components);
  template.category = effectiveCategory;
  if (format !== undefined) stored.info.parameterFormat = format;
  if (ttl !== undefined) stored.info.messageSendTtlSeconds = ttl;
  template.status = 'PENDING';
  return SUCCESS;
}

function deleteTemplates(state: SandboxState, owner: StoredAccount, params: ParamReader) {
  const name = params.string('name');
  const hsmId = params.optionalString('hsm_id');
  const matching = storedTemplates(owner).filter(({ template }) => template.name === name && (hsmId === undefined || template.id === hsmId));
  if (matching.length === 0) {
    throw userFacingError(
      100,
      'Message Template Not Found',
      hsmId === undefined ? `There is no message template named ${name}.` : `There is no message template ${hsmId} named ${name}.`,
    );
  }
  for (const stored of matching) state.removeTemplate(owner, stored);
  return SUCCESS;
}

/** Every text of a template, for Meta's `content` and `name_or_content` filters. */
function contentOf(template: SandboxTemplate): string {
  const texts: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, nested] of Object.entries(value)) if (key === 'text' || typeof nested === 'object') visit(nested);
    }
  };
  visit(template.components);
  return texts.join('\n').toLowerCase();
}

function contains(haystack: string, needle: string | null): boolean {
  return needle === null || needle === '' || haystack.toLowerCase().includes(needle.toLowerCase());
}

export const templateRoutes: GraphRoute[] = [
  route('waba', 'GET', 'message_templates', (context) => {
    const { query } = context;
    const fields = parseFields(query.get('fields'), TEMPLATE_NODE);
    const name = query.get('name');
    const language = query.get('language');
    const matching = storedTemplates(context.node.owner).filter(
      ({ template, info }) =>
        (name === null || name === '' || template.name === name) &&
        (language === null || language === '' || template.language === language) &&
        matchesFilter(template.status, query.get('status')) &&
        matchesFilter(template.category, query.get('category')) &&
        contains(contentOf(template), query.get('content')) &&
        (contains(template.name, query.get('name_or_content')) || contains(contentOf(template), query.get('name_or_content'))) &&
        // UNKNOWN until the control API rates the template.
        matchesFilter(info.qualityScore ?? 'UNKNOWN', query.get('quality_score')),
    );
    const page = paginate(
      matching.map((stored) => selectFields(renderTemplate(stored), fields)),
      query,
      context.request.url,
    );
    const summary = query.get('summary');
    return ok(
      summary !== null &&
        summary
          .split(',')
          .map((entry) => entry.trim())
          .includes('total_count')
        ? { ...page, summary: { total_count: matching.length } }
        : page,
    );
  }),
  route('waba', 'POST', 'message_templates', (context) => createTemplate(context.deps.state, context.node.owner, context.params())),
  route('waba', 'DELETE', 'message_templates', (context) => deleteTemplates(context.deps.state, context.node.owner, context.params())),

  route('template', 'GET', null, (context) => ok(selectFields(renderTemplate(context.node.stored), parseFields(context.query.get('fields'), TEMPLATE_NODE)))),
  route('template', 'POST', null, (context) => editTemplate(context.deps.state, context.node.owner, context.node.stored, context.params())),
];
