/** broadcast-keys: tenancy (readWrite) with API Gateway key registration and the contact policy, the audit log (write), rate limits. DynamoDB + API Gateway. */
import type { SenderKeyErrors, SenderKeyIssuer } from '../../shared/broadcast/generate-sender-key';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import type { OrganizationApiKeys } from '../../shared/tenancy/organization-api-keys';
import {
  BusinessAccountNeedsAuthorizationError,
  BusinessAccountNotFoundError,
  InvalidTenancyInputError,
  KeyGenerationNotEnabledError,
  PhoneNumberNotFoundError,
} from '../../shared/tenancy/errors';
import { apiKeyRegistrySection } from '../composition/api-key-registry.section';
import { auditSection } from '../composition/audit.section';
import { lazyPorts, value, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { tenancySection } from '../composition/tenancy.section';
import { contactPolicyStoreSection } from '../composition/send-rules.section';
import type { ContactPolicyPorts } from '../../shared/send-rules/contact-policy';

export interface BroadcastKeysDependencies extends HttpPipelineDependencies {
  keys: SenderKeyIssuer;
  keyErrors: SenderKeyErrors;
  /** The organization's own keys (`/api-keys`, docs/PEOPLE.md "API keys"). */
  apiKeys: OrganizationApiKeys;
  /** The organization's contact policy (`/contact-policy`, docs/CAMPAIGNS.md "Frequency caps"). */
  contactPolicies: ContactPolicyPorts;
}

/** One answer for all of them (the contract's "not found or not connected"): no oracle for which applied. */
const notConnected = [
  PhoneNumberNotFoundError,
  KeyGenerationNotEnabledError,
  BusinessAccountNotFoundError,
  BusinessAccountNeedsAuthorizationError,
  InvalidTenancyInputError,
];

export function composeBroadcastKeys(context: CompositionContext): BroadcastKeysDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancySection(context, dynamoDb, { apiKeyRegistry: apiKeyRegistrySection(context) });
  return lazyPorts<BroadcastKeysDependencies>({
    ...httpSection(context, dynamoDb, tenancy),
    // Creating and revoking a key are state-changing calls: each is recorded (docs/PEOPLE.md "Audit log").
    ...auditSection(context, dynamoDb),
    keys: tenancy,
    apiKeys: () => tenancy().organizationApiKeys,
    contactPolicies: () => lazyPorts<ContactPolicyPorts>({ policies: contactPolicyStoreSection(context, dynamoDb), clock: value(context.clock) }),
    keyErrors: value({ isNotConnected: (error: unknown) => notConnected.some((errorClass) => error instanceof errorClass) }),
  });
}
