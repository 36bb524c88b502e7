/**
 * What a broadcast key may do, by its scope (tenancy derives the scope from the stored credential;
 * docs/FREEFORM-AND-EARLIER.md, "Threat model"). The use cases call these checks themselves, so the
 * rules hold whichever route or pipeline reaches them.
 *
 * | Scope            | Operations                                         | Senders       | Job status                      |
 * | ---------------- | -------------------------------------------------- | ------------- | ------------------------------- |
 * | `organization`   | all                                                | all           | jobs of the organization        |
 * | `sender`         | all                                                | its number    | jobs sent from its number       |
 * | `earlier-sender` | send-single, send-bulk(-standard), job status only | its number    | jobs this very key created      |
 */
import type { KeyScope } from '../tenancy/tenancy-entities';
import { OperationOutsideKeyScopeError, SenderNotOwnedError } from './errors';

export type { KeyScope };

/** The caller as the broadcast use cases see it. No scope means the whole organization (every non-key credential). */
export interface ScopedCaller {
  organizationId: string;
  credentialId?: string;
  scope?: KeyScope;
}

export type BroadcastOperation =
  | 'list-phone-numbers'
  | 'list-templates'
  | 'send-template-broadcast'
  | 'send-freeform'
  | 'send-earlier'
  | 'read-job-status'
  /** Create and launch campaigns (docs/CAMPAIGNS.md); reading them is `read-job-status`, as a job's status. */
  | 'manage-campaigns';

/** All a key minted by generate-key needs: the earlier sends, and the status of its own jobs. */
const earlierSenderOperations: ReadonlySet<BroadcastOperation> = new Set(['send-earlier', 'read-job-status']);

const operationNames: Record<BroadcastOperation, string> = {
  'list-phone-numbers': 'phone-numbers',
  'list-templates': 'templates',
  'send-template-broadcast': 'send-template-broadcast',
  'send-freeform': 'send-freeform',
  'send-earlier': 'send-single and send-bulk',
  'read-job-status': 'status',
  'manage-campaigns': 'campaigns',
};

export function isOperationInScope(scope: KeyScope | undefined, operation: BroadcastOperation): boolean {
  return scope?.kind !== 'earlier-sender' || earlierSenderOperations.has(operation);
}

/** Throws OperationOutsideKeyScopeError (403) when the caller's key may not call the operation at all. */
export function requireOperationInScope(caller: ScopedCaller, operation: BroadcastOperation): void {
  if (!isOperationInScope(caller.scope, operation)) throw new OperationOutsideKeyScopeError(operationNames[operation]);
}

/** The one sender number the key is restricted to, if any. */
export function boundSenderOf(caller: ScopedCaller): string | undefined {
  return caller.scope?.kind === 'sender' || caller.scope?.kind === 'earlier-sender' ? caller.scope.phoneNumber : undefined;
}

/**
 * Throws SenderNotOwnedError (the contract's 401 for a number that is not the key's) when the key is
 * bound to another number. Whether the number belongs to the organization is the sender directory's check.
 */
export function requireSenderInScope(caller: ScopedCaller, phoneNumber: string): void {
  const bound = boundSenderOf(caller);
  if (bound !== undefined && bound !== phoneNumber) throw new SenderNotOwnedError(phoneNumber);
}

/** Whether a job of the caller's organization is within the key's reach (the organization itself is checked by the caller). */
export function isJobInScope(caller: ScopedCaller, job: { fromPhoneNumber: string; createdByCredentialId?: string }): boolean {
  const scope = caller.scope;
  if (scope === undefined || scope.kind === 'organization') return true;
  if (job.fromPhoneNumber !== scope.phoneNumber) return false;
  return scope.kind === 'sender' || (caller.credentialId !== undefined && job.createdByCredentialId === caller.credentialId);
}
