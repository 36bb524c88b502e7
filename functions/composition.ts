/**
 * The whole platform's services in one object, for the operators' side: the admin CLI, the local
 * runtime's demo seed and gateway key check, tests and benches. Lambdas never import this file:
 * each function has its own `functions/<group>/<group>.composition.ts` that builds only the ports
 * its resource definition grants, from the section builders in `functions/composition/`.
 *
 * Everything is built on first use and kept for the life of the object; SDK clients are pooled
 * per process (functions/composition/composition-context.ts).
 */
import type { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseAppConfig, type AppConfig } from '../shared/config/app-config';
import type { ProcessChunkDependencies } from '../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import type { EndpointRegistrationPorts } from '../shared/customer-events/webhook-endpoints';
import type { HttpPipelineDependencies } from '../shared/http/http-operation';
import type { InboxServices } from '../shared/inbox/inbox-services';
import type { MetaAppServices } from '../shared/meta-app/meta-app-services';
import type { OrganizationServices } from '../shared/organizations/organization-services';
import type { OrganizationSuspensionPorts } from '../shared/organizations/organization-suspension';
import type { Clock } from '../shared/ports/clock';
import type { IdGenerator } from '../shared/ports/id-generator';
import type { TenancyServices } from '../shared/tenancy/tenancy-services';
import type { UpstreamWrapperDependencies } from '../shared/upstream/ports';
import { broadcastSendPorts, type BroadcastServices } from './broadcast-send/broadcast-send.composition';
import { composeChunkWorker } from './chunk-worker/chunk-worker.composition';
import { apiGatewayClient } from './composition/api-gateway-client';
import { createCompositionContext, destroyPooledClients, lazyPorts, value, type ServiceOverrides } from './composition/composition-context';
import { dynamoDbClients } from './composition/dynamodb-clients';
import { httpSection } from './composition/http.section';
import { jobFiringSchedulerSection } from './composition/job-firing.section';
import { kmsClient } from './composition/kms-client';
import { metaAppServicesSection } from './composition/meta-app.section';
import { apiKeyRegistrySection } from './composition/api-key-registry.section';
import { sqsClient } from './composition/sqs-client';
import { tenancySection } from './composition/tenancy.section';
import { tokenCipherSection } from './composition/token-cipher.section';
import { webhookRegistrationSection } from './composition/webhook-registry.section';
import { organizationsSection } from './organization-admin/organization-admin.composition';
import { upstreamWrapperSection } from './upstream-wrapper/upstream-wrapper.composition';
import { inboxSection } from './v1-inbox/v1-inbox.composition';
import type { RateCardAdminPorts } from '../shared/pricing/rate-card-admin-commands';
import { rateCardStoreSection } from './composition/rate-cards.section';
import type { LedgerRepairPorts } from '../shared/broadcast/ledger-repair';
import { composeChunkDeadLetters } from './chunk-dead-letters/chunk-dead-letters.composition';
import { ledgerPageRepairSection } from './composition/messaging.section';
import type { PeoplePorts } from '../shared/people/manage-people';
import { randomSecretGenerator } from '../shared/crypto/secret-generator';
import { identityAccountsSection } from './composition/identity-accounts.section';
import type { ContactPolicyPorts } from '../shared/send-rules/contact-policy';
import { contactPolicyStoreSection } from './composition/send-rules.section';

export type { BroadcastServices } from './broadcast-send/broadcast-send.composition';
export type { ServiceOverrides } from './composition/composition-context';

/** SDK clients, each built once on first access (pooled per process). */
export interface AwsClients {
  readonly dynamoDb: DynamoDBDocumentClient;
  readonly dynamoDbBase: DynamoDBClient;
  readonly sqs: SQSClient;
  readonly kms: KMSClient;
  readonly apiGateway: APIGatewayClient;
}

export interface Services {
  readonly config: AppConfig;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly clients: AwsClients;
  readonly tenancy: TenancyServices;
  /** What the shared HTTP pipeline needs: authentication, rate limits, time. */
  readonly http: HttpPipelineDependencies;
  readonly broadcast: BroadcastServices;
  readonly chunkWorker: ProcessChunkDependencies;
  /** The /upstream Cloud API wrapper. */
  readonly upstreamWrapper: UpstreamWrapperDependencies;
  /** Organization administration (remove-employee-bulk). */
  readonly organizations: OrganizationServices;
  /** The kill switch: suspend-organization and resume-organization (shared/organizations/organization-suspension.ts). */
  readonly suspensions: OrganizationSuspensionPorts;
  /** Generic v1 API: contacts and conversations. */
  readonly inbox: InboxServices;
  /** The platform's Meta app (webhook app secret + verify token) and the metaEvents dead-letter replay. */
  readonly metaApp: MetaAppServices;
  /** Customer webhook endpoints: register, list, delete (the admin CLI's webhook commands). */
  readonly webhooks: EndpointRegistrationPorts;
  /** The rate cards (`set-rate-card`, `show-rate-card`: shared/pricing/rate-card-admin-commands.ts). */
  readonly rateCardAdmin: RateCardAdminPorts;
  /** The ledger repair (`repair-ledger-pages`: shared/broadcast/ledger-repair.ts), settling as the chunk-dead-letters function does. */
  readonly ledgerRepair: LedgerRepairPorts;
  /** The people of organizations (`invite-person`, `set-person-role`, `remove-person`, `list-people`: shared/people/people-admin-commands.ts). */
  readonly people: PeoplePorts;
  /** The organizations' contact policies (`set-contact-policy`, `show-contact-policy`: shared/send-rules/contact-policy-admin-commands.ts). */
  readonly contactPolicies: ContactPolicyPorts;
  /** Closes the sockets of every client built so far (tests and the local runtime's shutdown). */
  destroy(): void;
}

export function buildServices(config: AppConfig, overrides: ServiceOverrides = {}): Services {
  const context = createCompositionContext(config, overrides);
  const dynamoDb = dynamoDbClients(context);
  const sqs = sqsClient(context);
  const kms = kmsClient(context);
  const apiGateway = apiGatewayClient(context);
  // The operators' tenancy may do everything: encrypt tokens, register API keys.
  const tenancy = tenancySection(context, dynamoDb, { cipher: tokenCipherSection(context), apiKeyRegistry: apiKeyRegistrySection(context) });
  const { tenancy: _sendTenancy, ...broadcastPorts } = broadcastSendPorts(context);
  return lazyPorts<Services>({
    config: value(config),
    clock: value(context.clock),
    ids: value(context.ids),
    clients: value(
      lazyPorts<AwsClients>({
        dynamoDb: () => dynamoDb.document,
        dynamoDbBase: () => dynamoDb.base,
        sqs,
        kms,
        apiGateway,
      }),
    ),
    tenancy,
    http: () => lazyPorts(httpSection(context, dynamoDb, tenancy)),
    broadcast: () => lazyPorts<BroadcastServices>(broadcastPorts),
    chunkWorker: () => composeChunkWorker(context),
    upstreamWrapper: upstreamWrapperSection(context, dynamoDb, tenancy),
    organizations: organizationsSection(tenancy),
    suspensions: () =>
      lazyPorts<OrganizationSuspensionPorts>({
        tenancy: () => tenancy().repository,
        broadcasts: broadcastPorts.broadcasts,
        // Built on first use inside the cancel's best-effort removal: a deployment without a scheduler still suspends.
        scheduling: () => lazyPorts({ firings: jobFiringSchedulerSection(context) }),
        clock: value(context.clock),
        unconfirmedAfterMs: value(config.delivery.unconfirmedAfterMs),
        sleep: value((milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds))),
      }),
    inbox: inboxSection(context, dynamoDb, tenancy),
    metaApp: metaAppServicesSection(context, dynamoDb, tokenCipherSection(context)),
    webhooks: () => lazyPorts(webhookRegistrationSection(context, dynamoDb)),
    rateCardAdmin: () => lazyPorts<RateCardAdminPorts>({ rateCards: rateCardStoreSection(context, dynamoDb), clock: value(context.clock) }),
    ledgerRepair: () => {
      const settling = composeChunkDeadLetters(context);
      return lazyPorts<LedgerRepairPorts>({
        broadcasts: () => settling.broadcasts,
        clock: value(context.clock),
        events: () => settling.events,
        pages: ledgerPageRepairSection(context, dynamoDb),
      });
    },
    people: () =>
      lazyPorts<PeoplePorts>({
        tenancy: () => tenancy().repository,
        accounts: identityAccountsSection(context),
        apiKeys: apiKeyRegistrySection(context),
        secrets: value(overrides.secrets ?? randomSecretGenerator),
        clock: value(context.clock),
      }),
    contactPolicies: () => lazyPorts<ContactPolicyPorts>({ policies: contactPolicyStoreSection(context, dynamoDb), clock: value(context.clock) }),
    destroy: value(() => context.destroy()),
  });
}

let processServices: Services | undefined;

/** The process-wide services, configured from the environment. */
export function getServices(): Services {
  processServices ??= buildServices(parseAppConfig(process.env));
  return processServices;
}

/** Forgets the process-wide services (and closes every pooled client) so the next getServices() reads the environment again. */
export function resetServicesForTests(): void {
  processServices = undefined;
  destroyPooledClients();
}
