/**
 * A function's rights on the token key, limited to the encryption-context purposes its definition
 * names (`tokenPurposes`, runtime-contract/resource-definitions.ts): KMS checks the request's
 * encryption context against `kms:EncryptionContext:purpose`, so the internet-facing meta-webhook
 * function (purpose `meta-app`) cannot decrypt a tenant's Meta token or webhook secret even with the
 * key id and a stolen ciphertext. docs/OPERATIONS.md "KMS".
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { FunctionDefinition, FunctionName } from '../runtime-contract/resource-definitions';
import { legacyContextKeys } from '../shared/crypto/token-cipher';
import type { ServiceFunction } from './constructs/service-function';
import { pascal } from './naming';

/**
 * Exactly the calls the token cipher makes (Decrypt; Encrypt too for `encryptDecrypt`: grantEncryptDecrypt
 * would add kms:ReEncrypt* and GenerateDataKey*), each only under the function's own purposes; and
 * Decrypt of the legacy form of those purposes (contexts written before they named a purpose,
 * shared/crypto/token-cipher.ts `legacyContextKeys`), recognised by having exactly the legacy keys.
 *
 * @example
 * grantTokenKey(fn, 'meta-webhook', functions['meta-webhook'], stateful.tokenKey);
 */
export function grantTokenKey(fn: ServiceFunction, name: FunctionName, definition: FunctionDefinition, key: kms.IKey): void {
  const purposes = definition.tokenPurposes ?? [];
  if (!definition.tokenKey) {
    if (purposes.length > 0) throw new Error(`${name}: tokenPurposes without tokenKey grant nothing; add tokenKey or remove them`);
    return;
  }
  if (purposes.length === 0) throw new Error(`${name}: tokenKey needs tokenPurposes, or it would open every purpose's secrets`);
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      sid: 'TokenKeyOwnPurposes',
      actions: definition.tokenKey === 'decrypt' ? ['kms:Decrypt'] : ['kms:Encrypt', 'kms:Decrypt'],
      resources: [key.keyArn],
      conditions: { StringEquals: { 'kms:EncryptionContext:purpose': [...purposes] } },
    }),
  );
  for (const purpose of purposes) {
    const keys = legacyContextKeys[purpose];
    if (!keys) continue;
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid: `TokenKeyLegacy${pascal(purpose)}`,
        actions: ['kms:Decrypt'],
        resources: [key.keyArn],
        conditions: {
          // Every key of the context is a legacy key of this purpose (so no `purpose`), and all of them are there.
          'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...keys] },
          Null: Object.fromEntries(keys.map((contextKey) => [`kms:EncryptionContext:${contextKey}`, 'false'])),
        },
      }),
    );
  }
}
