/** broadcast-people: tenancy (readWrite: memberships), the audit log (write), API Gateway keys (each person's usage-plan key), the identity provider's accounts, rate limits. DynamoDB + API Gateway (+ Cognito on AWS). */
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import type { PeoplePorts } from '../../shared/people/manage-people';
import { apiKeyRegistrySection } from '../composition/api-key-registry.section';
import { auditSection } from '../composition/audit.section';
import { lazyPorts, value, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { identityAccountsSection } from '../composition/identity-accounts.section';
import { tenancyReaderSection } from '../composition/tenancy.section';
import { randomSecretGenerator } from '../../shared/crypto/secret-generator';

export type BroadcastPeopleDependencies = PeoplePorts & HttpPipelineDependencies;

export function composeBroadcastPeople(context: CompositionContext): BroadcastPeopleDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancyReaderSection(context, dynamoDb);
  return lazyPorts<BroadcastPeopleDependencies>({
    ...httpSection(context, dynamoDb, tenancy),
    // Invite, role change and removal are state-changing calls: each is recorded (docs/PEOPLE.md "Audit log").
    ...auditSection(context, dynamoDb),
    tenancy: () => tenancy().repository,
    accounts: identityAccountsSection(context),
    apiKeys: apiKeyRegistrySection(context),
    secrets: value(context.overrides.secrets ?? randomSecretGenerator),
    clock: value(context.clock),
  });
}
