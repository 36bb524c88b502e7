/**
 * The organization's contact policy (docs/CAMPAIGNS.md "Frequency caps"): read, set and remove it
 * (the API's `/contact-policy` routes and the operators' `set-contact-policy`), and the cached read
 * the chunk worker decides with. Off (no policy) by default.
 */
import * as v from 'valibot';
import { ExpiringReads } from '../caching/expiring-reads';
import type { Clock } from '../ports/clock';
import type { KeyScope } from '../tenancy/tenancy-entities';
import { contactPolicyRequestSchema, type ContactPolicyRequest } from './contact-policy.schema';
import { ContactPolicyOutsideKeyScopeError, InvalidContactPolicyError } from './errors';
import type { CappedCategory, ContactPolicy, ContactPolicyStore } from './ports';

/** The categories a policy counts when it names none. */
export const DEFAULT_CAPPED_CATEGORIES: readonly CappedCategory[] = ['MARKETING'];

/** Who changes the policy: the organization (a key's scope, absent for people and operators) and how the change is signed. */
export interface PolicyEditor {
  organizationId: string;
  scope?: KeyScope;
  /** `admin` (the operators' CLI), `person:<id>` or a key's credential id. */
  by: string;
}

export interface ContactPolicyPorts {
  policies: ContactPolicyStore;
  clock: Clock;
}

/** The answer of every read and change: the policy in force, or `null` when there is none (no cap). */
export interface ContactPolicyView {
  policy: (Omit<ContactPolicy, 'categories'> & { categories: CappedCategory[] }) | null;
}

const viewOf = (policy: ContactPolicy | undefined): ContactPolicyView =>
  policy === undefined ? { policy: null } : { policy: { ...policy, categories: [...(policy.categories ?? DEFAULT_CAPPED_CATEGORIES)] } };

function requireOrganizationScope(editor: PolicyEditor): void {
  if (editor.scope !== undefined && editor.scope.kind !== 'organization') throw new ContactPolicyOutsideKeyScopeError();
}

/** The field path of a valibot issue (`categories[1]`), the body itself when it has none. */
function fieldOf(issue: v.BaseIssue<unknown>): string {
  let text = '';
  for (const item of issue.path ?? []) {
    const key = (item as { key: unknown }).key;
    text += typeof key === 'number' ? `[${key}]` : text ? `.${String(key)}` : String(key);
  }
  return text || 'policy';
}

/**
 * The policy's rules checked (InvalidContactPolicyError naming the field and the rule, for callers
 * that did not parse a request: the operators' CLI).
 *
 * @example
 * checkContactPolicy({ marketingPerPerson: 2, perDays: 7 }); // { marketingPerPerson: 2, perDays: 7 }
 * checkContactPolicy({ marketingPerPerson: 0, perDays: 7 }); // throws InvalidContactPolicyError('marketingPerPerson must be at least 1')
 */
export function checkContactPolicy(input: unknown): ContactPolicyRequest {
  const parsed = v.safeParse(contactPolicyRequestSchema, input, { abortPipeEarly: true });
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  throw new InvalidContactPolicyError(`${fieldOf(issue)} ${issue.message}`);
}

/**
 * The organization's policy.
 *
 * @example
 * await getContactPolicy({ policies, clock }, 'org_1'); // { policy: { marketingPerPerson: 2, perDays: 7, categories: ['MARKETING'], updatedAt: '…' } } or { policy: null }
 */
export async function getContactPolicy(ports: ContactPolicyPorts, organizationId: string): Promise<ContactPolicyView> {
  return viewOf(await ports.policies.policyOf(organizationId));
}

/**
 * Sets (replaces) the organization's policy. Throws InvalidContactPolicyError, or
 * ContactPolicyOutsideKeyScopeError for a key bound to one sender.
 *
 * @example
 * await setContactPolicy({ policies, clock }, { organizationId: 'org_1', by: 'admin' }, { marketingPerPerson: 2, perDays: 7 });
 */
export async function setContactPolicy(ports: ContactPolicyPorts, editor: PolicyEditor, input: unknown): Promise<ContactPolicyView> {
  requireOrganizationScope(editor);
  const request = checkContactPolicy(input);
  const policy: ContactPolicy = {
    marketingPerPerson: request.marketingPerPerson,
    perDays: request.perDays,
    ...(request.categories === undefined ? {} : { categories: request.categories }),
    updatedAt: ports.clock.now().toISOString(),
    updatedBy: editor.by,
  };
  await ports.policies.setPolicy(editor.organizationId, policy);
  return viewOf(policy);
}

/**
 * Removes the organization's policy (no cap from then on; the sends counted so far stay counted
 * should a policy be set again). Removing none is no error.
 *
 * @example
 * await removeContactPolicy({ policies, clock }, { organizationId: 'org_1', by: 'admin' }); // { policy: null }
 */
export async function removeContactPolicy(ports: ContactPolicyPorts, editor: PolicyEditor): Promise<ContactPolicyView> {
  requireOrganizationScope(editor);
  await ports.policies.setPolicy(editor.organizationId, undefined);
  return { policy: null };
}

/** The categories a policy counts. */
export const cappedCategoriesOf = (policy: ContactPolicy): readonly CappedCategory[] => policy.categories ?? DEFAULT_CAPPED_CATEGORIES;

/**
 * The policy read through a per-container cache of `ttlMs` (CONTACT_POLICY_CACHE_SECONDS): the chunk
 * worker reads it per chunk message, and a policy set, changed or removed applies to sends within
 * that time (docs/CAMPAIGNS.md "Frequency caps": a cap changed mid-campaign).
 *
 * @example
 * const policies = new CachedContactPolicies(store, clock, 60_000);
 * await policies.policyOf('org_1'); // read once a minute per organization
 */
export class CachedContactPolicies implements Pick<ContactPolicyStore, 'policyOf'> {
  private readonly reads: ExpiringReads<ContactPolicy | undefined>;

  constructor(
    private readonly store: Pick<ContactPolicyStore, 'policyOf'>,
    private readonly clock: Clock,
    ttlMs: number,
  ) {
    this.reads = new ExpiringReads(ttlMs, 1_000);
  }

  policyOf(organizationId: string): Promise<ContactPolicy | undefined> {
    return this.reads.read(organizationId, this.clock.now().getTime(), () => this.store.policyOf(organizationId));
  }
}
