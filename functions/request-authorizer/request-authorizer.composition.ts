/**
 * request-authorizer: the jose token verifier of the configured issuers (PEOPLE_OIDC_ISSUERS; the
 * issuers' keys cached per container) and a read of people's memberships (tenancy, through gsi1).
 * Tokens expire by the real clock (the issuer's), not the composition's. DynamoDB only: no rate limits, no credential reads (an `x-api-key` is passed on unread).
 */
import { createJoseTokenVerifier } from '../../shared/adapters/oidc/jose-token-verifier';
import { DynamoDbMembershipStore } from '../../shared/adapters/dynamodb/dynamodb-membership-store';
import { requireSetting } from '../../shared/config/app-config';
import type { UsageIdentifierPorts } from '../../shared/people/usage-identifier';
import { lazyPorts, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';

export function composeRequestAuthorizer(context: CompositionContext): UsageIdentifierPorts {
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<UsageIdentifierPorts>({
    verifier: () => createJoseTokenVerifier({ issuers: context.config.people.issuers }),
    memberships: () => new DynamoDbMembershipStore(dynamoDb.document, requireSetting(context.config.tableNames.tenancy, 'TENANCY_TABLE')),
  });
}
