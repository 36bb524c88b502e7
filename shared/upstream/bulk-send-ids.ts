/**
 * The bulk send with the organization's ids checked and recorded around it: the template name and
 * any media ids in its components must belong to the organization before anything is sent, and
 * each recipient sent to leaves a send record afterwards, with its message id record when Meta
 * answered one (replies and read receipts may name them; webhooks find the send by its callback data). The phone number is resolved once, here, and handed to
 * shared/upstream/bulk-send.ts (the sending engine's policy for bulk sends).
 */
import { idsInBody } from './body-ids';
import { sendBulkTemplate, type BulkSendResult } from './bulk-send';
import { requireBodyIdsOwned } from './owned-ids';
import type { UpstreamWrapperDependencies } from './ports';
import { resolveTarget } from './resolve-target';
import { recordUpstreamSends } from './upstream-sends';

export async function sendBulkTemplateWithOwnedIds(
  deps: UpstreamWrapperDependencies,
  input: { organizationId: string; pathParameters: Readonly<Record<string, string>>; body: unknown },
): Promise<BulkSendResult> {
  const startedAtMs = deps.clock.now().getTime();
  // A foreign phoneNumberId answers 404 before the body is looked at, as on every route.
  const target = await resolveTarget(deps, 'phone-number', input.organizationId, input.pathParameters);
  await requireBodyIdsOwned(deps, target, idsInBody('bulk', input.body), 'sendBulkTemplate');
  const { result, sends } = await sendBulkTemplate(deps, target, input.body, startedAtMs);
  await recordUpstreamSends(deps, target, sends, 'sendBulkTemplate');
  return result;
}
