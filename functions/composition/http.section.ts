/** What the shared HTTP pipeline needs: authentication (keys and people's sign-in), the rate-limit counters, which numbers are an organization's, time. */
import { DynamoDbRateLimiter } from '../../shared/adapters/dynamodb/dynamodb-rate-limiter';
import { requireSetting } from '../../shared/config/app-config';
import type { HttpPipelineDependencies, SenderNumbers } from '../../shared/http/http-operation';
import type { TenancyServices } from '../../shared/tenancy/tenancy-services';
import { value, type CompositionContext, type PortFactories } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';
import { personAuthenticatorSection } from './people-sign-in.section';

export function httpSection(
  context: CompositionContext,
  dynamoDb: DynamoDbClients,
  tenancy: () => Pick<TenancyServices, 'authenticate' | 'repository'>,
): PortFactories<HttpPipelineDependencies> {
  const authenticatePerson = personAuthenticatorSection(context, () => tenancy().repository);
  const authenticate: HttpPipelineDependencies['authenticate'] = (kind, secret, person) =>
    person ? authenticatePerson(person) : tenancy().authenticate(kind, secret);
  const senderNumbers: SenderNumbers = {
    isOrganizationNumber: async (organizationId, digits) => (await tenancy().repository.findPhoneNumberByDigits(digits))?.organizationId === organizationId,
  };
  return {
    authenticate: value(authenticate),
    rateLimiter: () => new DynamoDbRateLimiter(dynamoDb.document, requireSetting(context.config.tableNames.rateLimits, 'RATE_LIMIT_TABLE')),
    clock: value(context.clock),
    senderNumbers: value(senderNumbers),
  };
}
