/**
 * The bulk send with the organization's ids checked and recorded around it: the template name and
 * any media ids in its components must belong to the organization before anything is sent, and
 * the message ids of the recipients it reached are recorded afterwards (replies and read receipts
 * may name them). The phone number is resolved once, here, and handed to
 * shared/upstream/bulk-send.ts (the sending engine's policy for bulk sends).
 */
import { idsInBody } from './body-ids';
import { sendBulkTemplate, type BulkSendResult } from './bulk-send';
import { recordSentMessages, requireBodyIdsOwned } from './owned-ids';
import type { UpstreamWrapperDependencies } from './ports';
import { resolveTarget } from './resolve-target';

export async function sendBulkTemplateWithOwnedIds(
  deps: UpstreamWrapperDependencies,
  input: { organizationId: string; pathParameters: Readonly<Record<string, string>>; body: unknown },
): Promise<BulkSendResult> {
  const startedAtMs = deps.clock.now().getTime();
  // A foreign phoneNumberId answers 404 before the body is looked at, as on every route.
  const target = await resolveTarget(deps, 'phone-number', input.organizationId, input.pathParameters);
  await requireBodyIdsOwned(deps, target, idsInBody('bulk', input.body), 'sendBulkTemplate');
  const result = await sendBulkTemplate(deps, target, input.body, startedAtMs);
  const sent = result.results.flatMap((recipient) => (recipient.status === 'sent' ? [recipient.message_id] : []));
  await recordSentMessages(deps, target, sent, 'sendBulkTemplate');
  return result;
}
