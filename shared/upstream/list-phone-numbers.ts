/**
 * GET /upstream/phone-numbers: every business account of the organization with its phone numbers,
 * read upstream in parallel with each account's own credentials.
 *
 * An account that cannot be read shows `status: false` with the error while the others resolve:
 * a flagged account (needs-authorization) is not called at all; an OAuth 190 answer flags it.
 * Only numbers the organization has added (and so can use on the other routes) are listed.
 * When no account could be read because Meta was unreachable, the answer is 502.
 */
import type { GraphError } from '../sending/ports';
import { listAllPages } from './call-upstream';
import { UpstreamRejectedError, UpstreamUnavailableError } from './errors';
import { contractErrorOf } from '../sending/graph-error';
import { accessTokenOf } from './resolve-target';
import type { UpstreamWrapperDependencies } from './ports';

export interface AccountEntry {
  waba_id: string;
  name: string;
  business_id: string;
  status: boolean;
  error?: ReturnType<typeof contractErrorOf>;
}

export interface PhoneNumbersResult {
  accounts: AccountEntry[];
  phone_numbers: Array<Record<string, unknown> & { id: string; waba_id: string }>;
}

const unavailableError = (reason: string): GraphError => ({
  message: `The WhatsApp Cloud API did not answer for this account (${reason}); retry with backoff`,
  type: 'UpstreamUnavailable',
  code: 502,
});

export async function listUpstreamPhoneNumbers(
  deps: UpstreamWrapperDependencies,
  input: { organizationId: string; fields?: string },
): Promise<PhoneNumbersResult> {
  const [accounts, ownNumbers] = await Promise.all([
    deps.tenancy.repository.listBusinessAccounts(input.organizationId),
    deps.tenancy.repository.listPhoneNumbers(input.organizationId),
  ]);
  const ownIds = new Set(ownNumbers.map((number) => number.phoneNumberId));
  // `id` is always asked for: it is how numbers are matched and addressed.
  const fields = input.fields
    ? [
        ...new Set([
          'id',
          ...input.fields
            .split(',')
            .map((field) => field.trim())
            .filter(Boolean),
        ]),
      ].join(',')
    : undefined;

  let unavailable = 0;
  const results = await Promise.all(
    accounts.map(async (account) => {
      const entry: AccountEntry = { waba_id: account.wabaId, name: account.name, business_id: account.businessId, status: true };
      try {
        const accessToken = await accessTokenOf(deps, account);
        const numbers = await listAllPages<Record<string, unknown>>(
          deps,
          { account, operation: 'listPhoneNumbers', verifiedNode: true },
          {
            path: `/${encodeURIComponent(account.wabaId)}/phone_numbers`,
            query: { limit: '100', ...(fields ? { fields } : {}) },
            accessToken,
          },
        );
        return {
          entry,
          numbers: numbers.filter((number) => ownIds.has(String(number.id))).map((number) => ({ ...number, id: String(number.id), waba_id: account.wabaId })),
        };
      } catch (error) {
        if (error instanceof UpstreamRejectedError) return { entry: { ...entry, status: false, error: contractErrorOf(error.graphError) }, numbers: [] };
        if (error instanceof UpstreamUnavailableError) {
          unavailable += 1;
          return { entry: { ...entry, status: false, error: contractErrorOf(unavailableError(error.message)) }, numbers: [] };
        }
        throw error;
      }
    }),
  );
  if (accounts.length > 0 && unavailable === accounts.length) throw new UpstreamUnavailableError('no business account could be read');
  return { accounts: results.map((result) => result.entry), phone_numbers: results.flatMap((result) => result.numbers) };
}
