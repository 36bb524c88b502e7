/** broadcast-discovery: tenancy (read, token key for Cloud API calls), messaging (read: template states), rate limits. DynamoDB + KMS. */
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import type { SenderDirectory } from '../../shared/broadcast/ports';
import type { TemplateCatalog } from '../../shared/broadcast/template-catalog';
import { cloudApiSection, templateCatalogSection } from '../composition/cloud-api.section';
import { lazyPorts, memoize, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { templateStatesSection } from '../composition/messaging.section';
import { senderDirectorySection } from '../composition/module-bridges.section';
import { tenancySection } from '../composition/tenancy.section';
import { tokenCipherSection } from '../composition/token-cipher.section';

export interface BroadcastDiscoveryDependencies extends HttpPipelineDependencies {
  senders: SenderDirectory;
  templates: TemplateCatalog;
}

export function composeBroadcastDiscovery(context: CompositionContext): BroadcastDiscoveryDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancySection(context, dynamoDb, { cipher: tokenCipherSection(context) });
  const cloudApi = memoize(() => cloudApiSection(context));
  return lazyPorts<BroadcastDiscoveryDependencies>({
    ...httpSection(context, dynamoDb, tenancy),
    senders: senderDirectorySection(context, tenancy),
    templates: templateCatalogSection(context, cloudApi, templateStatesSection(context, dynamoDb)),
  });
}
