/**
 * The recipient table of a job or a whole campaign: a status filter, pages of 50, and the CSV of the
 * filter as a download. Both lists have one shape (`GET …/recipients`, `?format=csv`).
 */
import { RECIPIENT_STATUSES, type RecipientRow, type RecipientsPage } from '../model/api-types';
import { addressOf, formatMoney, formatTime } from '../model/format';
import { OUTCOME_COLUMNS, hasOutcomeColumns, outcomeCellsOf } from '../model/recipient-outcomes';
import { describeError, getData, getTextPage } from './api';
import { announce, dataTable, el, notice, replaceChildren } from './dom';

const PAGE_SIZE = 50;

export interface RecipientsTable {
  root: HTMLElement;
  /** Reads the current page again (the page's refresh). */
  refresh(): Promise<void>;
}

function cellsOf(row: RecipientRow, withCost: boolean, withOutcomes: boolean, withWaiting = false): Array<string> {
  const cells = [
    addressOf(row),
    row.status,
    row.failureReasonCode ? `${row.failureReasonCode}: ${row.failureReason ?? ''}` : '—',
    formatTime(row.updatedAt),
    row.sentVia ?? '—',
  ];
  // Issue 39: a WAITING recipient's next chance (its window's opening, or when the frequency cap allows).
  if (withWaiting) cells.push(row.waitingUntil ? formatTime(row.waitingUntil) : '—');
  if (withCost) cells.push(row.cost ? formatMoney(row.cost.amount, row.cost.currency) : '—');
  if (withOutcomes) cells.push(...outcomeCellsOf(row));
  return cells;
}

/** Saves text as a file through an object URL: the key stays in the request header, never in a link. */
function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = el('a', { href: url, download: name, hidden: true });
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One page of recipients as a table, with the optional columns only when a row of the page fills them. */
function pageTable(recipients: RecipientRow[], status: string, pageIndex: number): HTMLElement {
  if (recipients.length === 0) return el('p', {}, 'No recipients match.');
  const withCost = recipients.some((row) => row.cost !== undefined);
  const withOutcomes = hasOutcomeColumns(recipients);
  const withWaiting = recipients.some((row) => row.waitingUntil);
  const headers = [
    'Recipient',
    'Status',
    'Failure',
    'Updated',
    'Sent via',
    ...(withWaiting ? ['Waiting until'] : []),
    ...(withCost ? ['Cost'] : []),
    ...(withOutcomes ? OUTCOME_COLUMNS : []),
  ];
  const caption = `Recipients${status ? ` with status ${status}` : ''}, page ${pageIndex + 1}`;
  return dataTable(
    caption,
    headers,
    recipients.map((row) => cellsOf(row, withCost, withOutcomes, withWaiting)),
    { class: 'recipients' },
  );
}

/** Whose recipients: the list's path (`/broadcasts/{jobId}/recipients`, `/campaigns/{campaignId}/recipients`) and the id that names the download. */
export interface RecipientsSource {
  path: string;
  id: string;
}

/**
 * The whole CSV of the filter: one answer, or, when the route pages it (`X-Next-Cursor`, as a large
 * campaign's list may), every page joined under the first page's header.
 */
async function wholeCsv(path: string, status: string): Promise<string> {
  let { text, nextCursor } = await getTextPage(path, { format: 'csv', status: status || undefined });
  while (nextCursor) {
    const page = await getTextPage(path, { format: 'csv', status: status || undefined, cursor: nextCursor });
    const rows = page.text.slice(page.text.indexOf('\n') + 1);
    text = `${text}${text.endsWith('\n') || rows === '' ? '' : '\r\n'}${rows}`;
    nextCursor = page.nextCursor;
  }
  return text;
}

export function createRecipientsTable(source: RecipientsSource): RecipientsTable {
  const cursors: Array<string | undefined> = [undefined];
  let pageIndex = 0;
  let status = '';
  const filter = el(
    'select',
    { id: 'status-filter', name: 'status' },
    el('option', { value: '' }, 'All'),
    ...RECIPIENT_STATUSES.map((value) => el('option', { value }, value)),
  );
  const download = el('button', { type: 'button' }, 'Download CSV');
  const body = el('div', { 'aria-live': 'polite', 'aria-busy': 'false' });
  const pager = el('nav', { class: 'pager', 'aria-label': 'Recipient pages' });
  const root = el(
    'section',
    { class: 'card', 'aria-labelledby': 'recipients-title' },
    el('h3', { id: 'recipients-title' }, 'Recipients'),
    el('div', { class: 'toolbar' }, el('label', { for: 'status-filter' }, 'Status'), filter, download),
    body,
    pager,
  );

  const load = async () => {
    body.setAttribute('aria-busy', 'true');
    try {
      const page = await getData<RecipientsPage>(source.path, { limit: PAGE_SIZE, status: status || undefined, cursor: cursors[pageIndex] });
      cursors[pageIndex + 1] = page.nextCursor ?? undefined;
      replaceChildren(body, pageTable(page.recipients, status, pageIndex));
      replaceChildren(
        pager,
        el('button', { type: 'button', disabled: pageIndex === 0, onclick: () => void go(pageIndex - 1) }, 'Previous'),
        ` Page ${pageIndex + 1} `,
        el('button', { type: 'button', disabled: !page.nextCursor, onclick: () => void go(pageIndex + 1) }, 'Next'),
      );
    } catch (error) {
      replaceChildren(body, notice(describeError(error)));
    } finally {
      body.setAttribute('aria-busy', 'false');
    }
  };
  const go = async (index: number) => {
    pageIndex = index;
    await load();
    announce(`Recipients page ${pageIndex + 1}`);
  };

  filter.addEventListener('change', () => {
    status = filter.value;
    cursors.length = 1;
    void go(0);
  });
  download.addEventListener('click', () => {
    download.disabled = true;
    wholeCsv(source.path, status)
      .then((csv) => {
        saveFile(`${source.id}-recipients${status ? `-${status.toLowerCase()}` : ''}.csv`, csv);
        announce('CSV downloaded');
      })
      .catch((error: unknown) => replaceChildren(body, notice(describeError(error))))
      .finally(() => (download.disabled = false));
  });
  return { root, refresh: load };
}
