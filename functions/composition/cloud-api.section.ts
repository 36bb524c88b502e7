/** The WhatsApp Cloud API (fetch, no SDK): the typed client, the template catalog, the raw Graph transport. */
import { HttpCloudApiClient } from '../../shared/adapters/graph-api/http-cloud-api-client';
import { HttpGraphTransport } from '../../shared/adapters/graph-api/http-graph-transport';
import type { TemplateStates } from '../../shared/broadcast/ports';
import { CachedMarketingMessagesOnboarding } from '../../shared/broadcast/marketing-messages-onboarding';
import { CachedMessagingTiers } from '../../shared/broadcast/messaging-tiers';
import { TemplateCatalog } from '../../shared/broadcast/template-catalog';
import type { CloudApiClient } from '../../shared/sending/ports';
import type { GraphTransport } from '../../shared/upstream/graph-transport';
import { memoize, type CompositionContext } from './composition-context';

export interface CloudApiSection {
  upstream: CloudApiClient;
}

export function cloudApiSection(context: CompositionContext): CloudApiSection {
  return { upstream: new HttpCloudApiClient(context.config.upstream) };
}

/** The catalog over the Cloud API client, overlaying the template states recorded from Meta's events (messaging table, read). */
export const templateCatalogSection = (context: CompositionContext, cloudApi: () => CloudApiSection, templateStates: () => TemplateStates) =>
  memoize(
    () =>
      new TemplateCatalog(
        cloudApi().upstream,
        context.clock,
        context.config.sending.templateCacheTtlMs,
        {
          statesOf: (wabaId) => templateStates().statesOf(wabaId),
          attributesOf: (wabaId) => templateStates().attributesOf(wabaId),
        },
        context.config.clicks.baseUrl,
      ),
  );

/** Numbers' messaging limits over the Cloud API client, cached per phone number id for a few minutes. */
export const messagingTiersSection = (context: CompositionContext, cloudApi: () => CloudApiSection) =>
  memoize(() => new CachedMessagingTiers(cloudApi().upstream, context.clock));

/** Business accounts' Marketing Messages API onboarding over the Cloud API client, cached per WABA id for a few minutes. */
export const marketingMessagesOnboardingSection = (context: CompositionContext, cloudApi: () => CloudApiSection) =>
  memoize(() => new CachedMarketingMessagesOnboarding(cloudApi().upstream, context.clock));

export const graphTransportSection = (context: CompositionContext): GraphTransport => new HttpGraphTransport(context.config.upstream);
