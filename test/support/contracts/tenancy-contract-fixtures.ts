/**
 * Fixtures shared by the tenancy stores' contract suites. Each store is shared by the tests of one
 * run (a dynalite table is not cheap to make), so every test works on its own fresh ids.
 */
import type { Credential, Organization } from '../../../shared/tenancy/tenancy-entities';

export const at = '2026-05-04T08:00:00.000Z';
export const later = '2026-05-04T09:00:00.000Z';
let sequence = 0;
/** A number no other test of this run uses (pricing's calling codes). */
export const nextSequence = () => (sequence += 1);
/** An id no other test of this run uses. */
export const fresh = (prefix: string) => `${prefix}${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}`;
export const freshDigits = () => `1555${String(process.pid % 1000).padStart(3, '0')}${String((sequence += 1) % 100_000).padStart(5, '0')}`;

export const organization = (organizationId = fresh('org_')): Organization => ({
  organizationId,
  name: 'Contract Org',
  plan: 'professional',
  apiAddOn: false,
  status: 'active',
  createdAt: at,
  updatedAt: at,
});

export const credential = (organizationId: string, overrides: Partial<Credential> = {}): Credential => ({
  credentialId: fresh('cred_'),
  kind: 'broadcast-api-key',
  secretHash: fresh('hash'),
  organizationId,
  createdAt: at,
  ...overrides,
});
