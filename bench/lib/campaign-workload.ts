/**
 * Audiences and campaigns for the campaign bench: members numbered as the broadcast bodies'
 * recipients (workload.ts `benchNationalNumber`, so audience `seed` and broadcast body `seed` are
 * the same people with the same two values), imported through the API or seeded straight through
 * the audience store's adapter (what a 1,000,000-member audience needs to be ready in minutes), and
 * the campaign body that fills the bench template's two values from each member's attributes.
 */
import type { AudienceMember } from '../../shared/audiences/audience';
import type { AudienceStore } from '../../shared/audiences/ports';
import type { CampaignApi, MemberRow } from './campaign-api';
import { BENCH_TEMPLATE, benchNationalNumber, type BenchTenant } from './workload';

/** Members per POST /audiences/{id}/members (the API's limit). */
export const IMPORT_PAGE = 10_000;

const attributesOf = (seed: number, index: number) => ({ first_name: `Customer ${index}`, order: `ORD-${seed}-${index}` });

/** Members `from` .. `from + count - 1` of audience `seed`, as the API takes them. */
export function memberRows(seed: number, from: number, count: number): MemberRow[] {
  return Array.from({ length: count }, (_, offset) => ({
    countryCode: '91',
    toPhoneNumber: benchNationalNumber(seed, from + offset),
    attributes: attributesOf(seed, from + offset),
    tags: [],
  }));
}

/** The same members as the audience store keeps them (an Indian number is its own person key). */
export function storedMembers(seed: number, from: number, count: number, updatedAt: string): AudienceMember[] {
  return memberRows(seed, from, count).map((row) => {
    const digits = `${row.countryCode}${row.toPhoneNumber}`;
    return { personKey: digits, to: digits, countryCode: row.countryCode, toPhoneNumber: row.toPhoneNumber, attributes: row.attributes, tags: [], updatedAt };
  });
}

/** Every member's recipient key (E.164 digits, as the sandbox logs `recipient`). */
export const memberRecipients = (seed: number, count: number): string[] => Array.from({ length: count }, (_, index) => `91${benchNationalNumber(seed, index)}`);

export interface ImportRun {
  members: number;
  pages: number;
  seconds: number;
  /** Round trip of each page's POST. */
  pageMs: number[];
  added: number;
  updated: number;
  invalid: number;
}

/** Imports `count` members through POST /audiences/{id}/members, one page of 10,000 after another (as the CLI does). */
export async function importMembers(api: CampaignApi, audienceId: string, seed: number, count: number): Promise<ImportRun> {
  const run: ImportRun = { members: count, pages: 0, seconds: 0, pageMs: [], added: 0, updated: 0, invalid: 0 };
  const started = performance.now();
  for (let from = 0; from < count; from += IMPORT_PAGE) {
    const rows = memberRows(seed, from, Math.min(IMPORT_PAGE, count - from));
    const answer = await api.addMembers(audienceId, rows);
    run.pages += 1;
    run.pageMs.push(answer.ms);
    run.added += answer.data.added;
    run.updated += answer.data.updated;
    run.invalid += answer.data.invalid.length;
  }
  run.seconds = (performance.now() - started) / 1000;
  return run;
}

/**
 * Writes `count` members of audience `seed` through the store adapter's `upsertMembers`, pages of
 * 1,000, `concurrency` pages at a time (default 1: the adapter writes a page's members 32 at a
 * time already, and more would outrun the emulator's connection timeout): the audience as an import
 * would leave it, without the HTTP round trips and request validation. Answers the seconds it took.
 */
export async function seedMembers(
  store: AudienceStore,
  target: { organizationId: string; audienceId: string },
  seed: number,
  count: number,
  options: { concurrency?: number; log?: (line: string) => void } = {},
): Promise<number> {
  const page = 1_000;
  const started = performance.now();
  const updatedAt = new Date().toISOString();
  let next = 0;
  let lastReport = started;
  const worker = async () => {
    while (next < count) {
      const from = next;
      next += page;
      await store.upsertMembers(target.organizationId, target.audienceId, storedMembers(seed, from, Math.min(page, count - from), updatedAt));
      if (options.log && performance.now() - lastReport > 15_000) {
        lastReport = performance.now();
        options.log(`    seeded ${Math.min(next, count).toLocaleString('en-US')} of ${count.toLocaleString('en-US')} members`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 1 }, worker));
  return (performance.now() - started) / 1000;
}

/**
 * A campaign of the bench template to `audienceIds`: `{{1}}` from `first_name` (fallback "there"),
 * `{{2}}` from `order`, the values a broadcast body of the same seed carries literally.
 */
export function campaignBody(tenant: BenchTenant, audienceIds: readonly string[], name: string): Record<string, unknown> {
  return {
    name,
    fromPhoneNumber: tenant.phoneNumber,
    templateName: BENCH_TEMPLATE.name,
    templateLanguage: BENCH_TEMPLATE.language,
    templateType: BENCH_TEMPLATE.category,
    audience: { audienceIds },
    templateParams: [{ attribute: 'first_name', fallback: 'there' }, { attribute: 'order' }],
  };
}

/** A new audience (through the API) seeded with `count` members through the store. */
export async function seededAudience(
  api: CampaignApi,
  store: AudienceStore,
  tenant: BenchTenant,
  seed: number,
  count: number,
  log?: (line: string) => void,
): Promise<{ audienceId: string; seedSeconds: number }> {
  const { audienceId } = (await api.createAudience(`bench ${seed} ${count}`)).data;
  const seedSeconds = await seedMembers(store, { organizationId: tenant.organizationId, audienceId }, seed, count, { log });
  return { audienceId, seedSeconds };
}
