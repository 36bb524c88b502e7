/** broadcast-keys: tenancy (readWrite) with API Gateway key registration, rate limits. DynamoDB + API Gateway. */
import type { SenderKeyErrors, SenderKeyIssuer } from '../../shared/broadcast/generate-sender-key';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import {
  BusinessAccountNeedsAuthorizationError,
  BusinessAccountNotFoundError,
  InvalidTenancyInputError,
  KeyGenerationNotEnabledError,
  PhoneNumberNotFoundError,
} from '../../shared/tenancy/errors';
import { apiKeyRegistrySection } from '../composition/api-key-registry.section';
import { lazyPorts, value, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { tenancySection } from '../composition/tenancy.section';

export interface BroadcastKeysDependencies extends HttpPipelineDependencies {
  keys: SenderKeyIssuer;
  keyErrors: SenderKeyErrors;
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
    keys: tenancy,
    keyErrors: value({ isNotConnected: (error: unknown) => notConnected.some((errorClass) => error instanceof errorClass) }),
  });
}
