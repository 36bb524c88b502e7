import type { CloudApiClient, UpstreamTemplate } from '../sending/ports';
import type { Clock, TemplateAttribute, TemplateState, TemplateStates } from './ports';

/**
 * Templates of a business account, read from the Cloud API and kept briefly in memory: the
 * template list and every broadcast validation need them, and Meta rate-limits reads.
 *
 * Meta also reports state changes by webhook (`message_template_status_update`, recorded by
 * `recordTemplateState` below). Every read overlays the recorded states that are newer than the
 * cached list, so the next broadcast after a PAUSED event is refused at once (and an APPROVED one
 * makes the template sendable again) instead of after the cache expires. Quality and category
 * events (`message_template_quality_update`, `template_category_update`) are overlaid the same way:
 * the template list shows the new quality and category, and the next accept prices and routes by
 * the new category (docs/BROADCAST.md "When Meta re-categorises a template"). Reading them is two
 * strongly consistent Queries of the account's few state items per call.
 */
export class TemplateCatalog {
  private readonly cache = new Map<string, { expiresAt: number; fetchedAt: number; templates: Promise<UpstreamTemplate[]> }>();

  constructor(
    private readonly upstream: CloudApiClient,
    private readonly clock: Clock,
    private readonly ttlMs = 60_000,
    /** Absent only in tests of other concerns: no recorded states are overlaid. */
    private readonly states?: Pick<TemplateStates, 'statesOf' | 'attributesOf'>,
    /** The platform's tracked-link base (CLICK_BASE_URL), stamped on every template read (template-requirements.ts `tracked`). */
    private readonly clickBaseUrl?: string,
  ) {}

  async templatesOf(wabaId: string, accessToken: string): Promise<UpstreamTemplate[]> {
    const entry = this.cachedList(wabaId, accessToken);
    if (!this.states) return this.stamped(await entry.templates);
    const [templates, states, attributes] = await Promise.all([entry.templates, this.states.statesOf(wabaId), this.states.attributesOf(wabaId)]);
    return this.stamped(overlayTemplateAttributes(overlayTemplateStates(templates, states, entry.fetchedAt), attributes, entry.fetchedAt));
  }

  private stamped(templates: UpstreamTemplate[]): UpstreamTemplate[] {
    const clickBaseUrl = this.clickBaseUrl;
    return clickBaseUrl === undefined ? templates : templates.map((template) => ({ ...template, clickBaseUrl }));
  }

  private cachedList(wabaId: string, accessToken: string) {
    const now = this.clock.now().getTime();
    const cached = this.cache.get(wabaId);
    if (cached && cached.expiresAt > now) return cached;
    const entry = { expiresAt: now + this.ttlMs, fetchedAt: now, templates: this.upstream.listTemplates(wabaId, { accessToken }) };
    this.cache.set(wabaId, entry);
    // A failed read must not be served from the cache.
    entry.templates.catch(() => {
      if (this.cache.get(wabaId) === entry) this.cache.delete(wabaId);
    });
    return entry;
  }
}

/**
 * Meta's event times are whole seconds: an event up to a second before the list was requested may
 * not be in it. Overlaying a state the list already shows changes nothing.
 */
const eventTimeResolutionMs = 1000;

/**
 * The list with each template's status replaced by its recorded state when that state is newer than
 * the list (Meta's event time after the list was requested). The same array when nothing applies.
 */
export function overlayTemplateStates(templates: UpstreamTemplate[], states: readonly TemplateState[], listedAtMs: number): UpstreamTemplate[] {
  const newer = new Map(
    states.filter((state) => state.at.getTime() > listedAtMs - eventTimeResolutionMs).map((state) => [`${state.name}#${state.language}`, state]),
  );
  if (newer.size === 0) return templates;
  let changed = false;
  const overlaid = templates.map((template) => {
    const state = newer.get(`${template.name}#${template.language}`);
    if (!state || state.status === template.status) return template;
    changed = true;
    return { ...template, status: state.status };
  });
  return changed ? overlaid : templates;
}

/**
 * The list with each template's quality score and category replaced by the recorded ones newer
 * than the list (the same rule as the states). The same array when nothing applies.
 *
 * @example
 * overlayTemplateAttributes(list, [{ name: 'promo', language: 'en', templateId: '1', kind: 'category', value: 'MARKETING', at }], listedAtMs)
 */
export function overlayTemplateAttributes(templates: UpstreamTemplate[], attributes: readonly TemplateAttribute[], listedAtMs: number): UpstreamTemplate[] {
  const newer = attributes.filter((attribute) => attribute.at.getTime() > listedAtMs - eventTimeResolutionMs);
  if (newer.length === 0) return templates;
  const byTemplate = new Map<string, TemplateAttribute[]>();
  for (const attribute of newer)
    byTemplate.set(`${attribute.name}#${attribute.language}`, [...(byTemplate.get(`${attribute.name}#${attribute.language}`) ?? []), attribute]);
  let changed = false;
  const overlaid = templates.map((template) => {
    let result = template;
    for (const attribute of byTemplate.get(`${template.name}#${template.language}`) ?? []) {
      if (attribute.kind === 'category' && result.category !== attribute.value) result = { ...result, category: attribute.value };
      if (attribute.kind === 'quality' && result.quality_score?.score !== attribute.value)
        result = { ...result, quality_score: { ...result.quality_score, score: attribute.value } };
    }
    changed ||= result !== template;
    return result;
  });
  return changed ? overlaid : templates;
}

/** Records a template's quality or category from Meta's event; an older event never replaces a newer one. */
export function recordTemplateAttribute(
  ports: { templateStates: Pick<TemplateStates, 'recordAttribute'> },
  wabaId: string,
  attribute: TemplateAttribute,
): Promise<boolean> {
  return ports.templateStates.recordAttribute(wabaId, { ...attribute, value: attribute.value.toUpperCase() });
}

/** Records a template's new state from Meta's event; an older event never replaces a newer one. */
export function recordTemplateState(ports: { templateStates: Pick<TemplateStates, 'record'> }, wabaId: string, state: TemplateState): Promise<boolean> {
  return ports.templateStates.record(wabaId, { ...state, status: state.status.toUpperCase() });
}
