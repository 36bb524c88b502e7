import type { CloudApiClient, UpstreamTemplate } from '../sending/ports';
import type { Clock, TemplateState, TemplateStates } from './ports';

/**
 * Templates of a business account, read from the Cloud API and kept briefly in memory: the
 * template list and every broadcast validation need them, and Meta rate-limits reads.
 *
 * Meta also reports state changes by webhook (`message_template_status_update`, recorded by
 * `recordTemplateState` below). Every read overlays the recorded states that are newer than the
 * cached list, so the next broadcast after a PAUSED event is refused at once (and an APPROVED one
 * makes the template sendable again) instead of after the cache expires. Reading them is one
 * strongly consistent Query of the account's few state items per call.
 */
export class TemplateCatalog {
  private readonly cache = new Map<string, { expiresAt: number; fetchedAt: number; templates: Promise<UpstreamTemplate[]> }>();

  constructor(
    private readonly upstream: CloudApiClient,
    private readonly clock: Clock,
    private readonly ttlMs = 60_000,
    /** Absent only in tests of other concerns: no recorded states are overlaid. */
    private readonly states?: Pick<TemplateStates, 'statesOf'>,
  ) {}

  async templatesOf(wabaId: string, accessToken: string): Promise<UpstreamTemplate[]> {
    const entry = this.cachedList(wabaId, accessToken);
    if (!this.states) return entry.templates;
    const [templates, states] = await Promise.all([entry.templates, this.states.statesOf(wabaId)]);
    return overlayTemplateStates(templates, states, entry.fetchedAt);
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

/** Records a template's new state from Meta's event; an older event never replaces a newer one. */
export function recordTemplateState(ports: { templateStates: Pick<TemplateStates, 'record'> }, wabaId: string, state: TemplateState): Promise<boolean> {
  return ports.templateStates.record(wabaId, { ...state, status: state.status.toUpperCase() });
}
