/** The WhatsApp Cloud API (fetch, no SDK): the typed client, the template catalog, the raw Graph transport. */
import { FetchCloudApiClient } from '../../shared/adapters/graph-api/fetch-cloud-api-client';
import { FetchGraphTransport } from '../../shared/adapters/graph-api/fetch-graph-transport';
import { TemplateCatalog } from '../../shared/broadcast/template-catalog';
import type { CloudApiClient } from '../../shared/sending/ports';
import type { GraphTransport } from '../../shared/upstream/graph-transport';
import type { CompositionContext } from './composition-context';

export interface CloudApiSection {
  upstream: CloudApiClient;
  templates: TemplateCatalog;
}

export function cloudApiSection(context: CompositionContext): CloudApiSection {
  const upstream = new FetchCloudApiClient(context.config.upstream);
  return { upstream, templates: new TemplateCatalog(upstream, context.clock, context.config.sending.templateCacheTtlMs) };
}

export const graphTransportSection = (context: CompositionContext): GraphTransport => new FetchGraphTransport(context.config.upstream);
