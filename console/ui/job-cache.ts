/**
 * List entries seen on this page load, by job id: the campaign page takes the name, template and
 * sender from them (the status answer has none). A page opened directly looks through the newest
 * entries of the list.
 */
import type { BroadcastListItem, BroadcastsPage } from '../model/api-types';
import { getData } from './api';

const seen = new Map<string, BroadcastListItem>();

export const remember = (items: readonly BroadcastListItem[]): void => items.forEach((item) => seen.set(item.jobId, item));

/** The job's list entry: remembered, else up to 5 pages of 100 of the list (what GET /broadcasts examines). */
export async function listEntryOf(jobId: string): Promise<BroadcastListItem | undefined> {
  let cursor: string | undefined;
  for (let page = 0; !seen.has(jobId) && page < 5; page += 1) {
    const listed = await getData<BroadcastsPage>('/broadcasts', { limit: 100, cursor });
    remember(listed.broadcasts);
    if (!listed.nextCursor) break;
    cursor = listed.nextCursor;
  }
  return seen.get(jobId);
}
