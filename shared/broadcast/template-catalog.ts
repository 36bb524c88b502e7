import type { CloudApiClient, UpstreamTemplate } from '../sending/ports';
import type { Clock } from './ports';

/**
 * Templates of a business account, read from the Cloud API and kept briefly in memory: the
 * template list and every broadcast validation need them, and Meta rate-limits reads.
 */
export class TemplateCatalog {
  private readonly cache = new Map<string, { expiresAt: number; templates: Promise<UpstreamTemplate[]> }>();

  constructor(
    private readonly upstream: CloudApiClient,
    private readonly clock: Clock,
    private readonly ttlMs = 60_000,
  ) {}

  templatesOf(wabaId: string, accessToken: string): Promise<UpstreamTemplate[]> {
    const now = this.clock.now().getTime();
    const cached = this.cache.get(wabaId);
    if (cached && cached.expiresAt > now) return cached.templates;
    const templates = this.upstream.listTemplates(wabaId, { accessToken });
    this.cache.set(wabaId, { expiresAt: now + this.ttlMs, templates });
    // A failed read must not be served from the cache.
    templates.catch(() => this.cache.delete(wabaId));
    return templates;
  }
}
