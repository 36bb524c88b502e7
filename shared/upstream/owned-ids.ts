/**
 * Template and flow ids are Graph nodes of their own: `GET /{template-id}` works with any token
 * that can see the template, and says nothing about which business account owns it. The wrapper
 * therefore checks such ids against the account's own list (`GET /{waba-id}/message_templates`,
 * `GET /{waba-id}/flows`), read upstream with the account's token and reused for a short while
 * (per Lambda container). An id missing from a cached list triggers one fresh read (it may have
 * just been created) before the answer is 404. QR codes are checked the same way against the
 * number's `GET /{phone-number-id}/message_qrdls`.
 */
import { UpstreamTargetNotFoundError } from './errors';
import { listAllPages } from './call-upstream';
import type { ResolvedTarget } from './resolve-target';
import type { UpstreamWrapperDependencies } from './ports';

export type OwnedIdKind = 'template' | 'flow' | 'qr-code';

interface CachedList {
  ids: Set<string>;
  fetchedAt: number;
}

/** The list an id must be in, and the field naming each item (QR codes are named by `code`). */
function listOf(kind: OwnedIdKind, target: ResolvedTarget): { path: string; query: Record<string, string>; idField: 'id' | 'code'; owner: string } {
  const wabaId = encodeURIComponent(target.account.wabaId);
  switch (kind) {
    case 'template':
      return { path: `/${wabaId}/message_templates`, query: { fields: 'id', limit: '100' }, idField: 'id', owner: target.account.wabaId };
    case 'flow':
      return { path: `/${wabaId}/flows`, query: { limit: '100' }, idField: 'id', owner: target.account.wabaId };
    case 'qr-code': {
      if (!target.phoneNumber) throw new Error('QR codes are checked against a phone number');
      const phoneNumberId = target.phoneNumber.phoneNumberId;
      // Default page size: Meta caps this edge's limit lower than the others'.
      return { path: `/${encodeURIComponent(phoneNumberId)}/message_qrdls`, query: {}, idField: 'code', owner: phoneNumberId };
    }
  }
}

export class OwnedIdDirectory {
  private readonly lists = new Map<string, CachedList>();

  constructor(private readonly ttlMs: number) {}

  /** Throws UpstreamTargetNotFoundError (404) for the first id the account does not own. */
  async requireOwned(deps: UpstreamWrapperDependencies, kind: OwnedIdKind, ids: readonly string[], target: ResolvedTarget, operation: string): Promise<void> {
    if (ids.length === 0) return;
    const source = listOf(kind, target);
    const key = `${target.account.organizationId}#${source.owner}#${kind}`;
    const now = deps.clock.now().getTime();
    let list = this.lists.get(key);
    if (!list || now - list.fetchedAt > this.ttlMs || ids.some((id) => !list!.ids.has(id))) {
      const items = await listAllPages<Record<string, unknown>>(deps, { account: target.account, operation, verifiedNode: true }, {
        path: source.path,
        query: source.query,
        accessToken: target.accessToken,
      });
      list = { ids: new Set(items.map((item) => String(item[source.idField]))), fetchedAt: now };
      this.lists.set(key, list);
    }
    const missing = ids.find((id) => !list!.ids.has(id));
    if (missing !== undefined) throw new UpstreamTargetNotFoundError(kind, missing);
  }

  /** Forgets the lists of an account or number (after a delete through the wrapper, say). */
  forget(organizationId: string, owner: string): void {
    for (const kind of ['template', 'flow', 'qr-code'] as const) this.lists.delete(`${organizationId}#${owner}#${kind}`);
  }
}
