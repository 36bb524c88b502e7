/**
 * Importing an audience file (docs/CONSOLE.md "Importing a CSV"): parsed in the browser
 * (model/csv-members.ts), sent in pages of 1,000 rows to `POST /audiences/{audienceId}/members`, each
 * page with its own Idempotency-Key (made once, reused by its retry, so a retried page writes once),
 * a progress bar with its words, every line refused named by its line number with the API's field and
 * rule, and a retry of each page that failed.
 */
import type { MembersWritten } from '../model/api-types';
import { linesOfInvalid, membersOfCsv, pagesOf, problemText, type CsvMember, type LineProblem } from '../model/csv-members';
import { formatCount } from '../model/format';
import { describeError, sendEnvelope } from './api';
import { announce, el, notice, replaceChildren } from './dom';
import { idempotencyKey } from './follow-up-dialog';

export interface ImportResult {
  audienceId: string;
  added: number;
  updated: number;
  problems: LineProblem[];
  /** Pages not written (a retry button is shown for each). */
  failedPages: number;
  attributes: string[];
}

export interface ImporterOptions {
  /** The field's id prefix (unique on the page). */
  id: string;
  /** The audience to write: an existing one, or one created when the import starts. */
  audience(): Promise<string>;
  /** Told after every pass over the pages (the first and each retry). */
  done?(result: ImportResult): void;
}

interface PageState {
  number: number;
  rows: CsvMember[];
  key: string;
  written: boolean;
}

interface ImporterView {
  root: HTMLElement;
  input: HTMLInputElement;
  progress: HTMLProgressElement;
  progressText: HTMLElement;
  problems: HTMLElement;
  retries: HTMLElement;
}

function importerView(id: string): ImporterView {
  const input = el('input', { id: `${id}-file`, type: 'file', accept: '.csv,text/csv', 'aria-describedby': `${id}-help` });
  const progress = el('progress', { max: 1, value: 0, 'aria-labelledby': `${id}-progress-text` });
  const progressText = el('span', { id: `${id}-progress-text` }, 'No file sent yet.');
  const problems = el('div', { 'aria-live': 'polite' });
  const retries = el('div', { class: 'actions' });
  const root = el(
    'div',
    { class: 'importer' },
    el('div', { class: 'field' }, el('label', { for: `${id}-file` }, 'CSV file'), input),
    el(
      'p',
      { id: `${id}-help`, class: 'help' },
      'Header row: countryCode, toPhoneNumber, userId, tags (joined by |) and one column per attribute. Sent 1,000 rows a request.',
    ),
    el('p', { class: 'progress-line' }, progress, ' ', progressText),
    problems,
    retries,
  );
  return { root, input, progress, progressText, problems, retries };
}

/** The progress bar, its words and the lines refused so far (in line order). */
function drawProgress(view: ImporterView, pages: readonly PageState[], total: number, result: ImportResult): void {
  const sent = pages.filter((page) => page.written).reduce((sum, page) => sum + page.rows.length, 0);
  view.progress.max = Math.max(total, 1);
  view.progress.value = sent;
  replaceChildren(
    view.progressText,
    `${formatCount(sent)} of ${formatCount(total)} rows sent · ${formatCount(result.added)} added, ${formatCount(result.updated)} updated, ${formatCount(result.problems.length)} lines refused`,
  );
  const lines = result.problems.slice().sort((a, b) => a.line - b.line);
  replaceChildren(
    view.problems,
    lines.length === 0
      ? null
      : el(
          'details',
          { open: lines.length <= 20 },
          el('summary', {}, `${formatCount(lines.length)} lines not imported`),
          el('ul', { class: 'line-problems' }, ...lines.map((line) => el('li', {}, problemText(line)))),
        ),
  );
}

/** The words of a page that failed, with the lines it holds. */
const pageFailure = (page: PageState, error: unknown): string =>
  `Page ${page.number} (lines ${page.rows[0]?.line ?? 0}–${page.rows[page.rows.length - 1]?.line ?? 0}) was not written: ${describeError(error)}`;

export function createImporter(options: ImporterOptions): { root: HTMLElement; start(): Promise<ImportResult | undefined>; hasFile(): boolean } {
  const view = importerView(options.id);
  const { input, problems, retries } = view;
  const result: ImportResult = { audienceId: '', added: 0, updated: 0, problems: [], failedPages: 0, attributes: [] };
  let pages: PageState[] = [];
  let total = 0;
  const show = () => drawProgress(view, pages, total, result);

  const sendPage = async (page: PageState): Promise<void> => {
    try {
      const answer = await sendEnvelope<MembersWritten>('POST', `/audiences/${encodeURIComponent(result.audienceId)}/members`, {
        body: { members: page.rows.map((row) => row.member) },
        headers: { 'Idempotency-Key': page.key },
      });
      page.written = true;
      result.added += answer.data.added;
      result.updated += answer.data.updated;
      result.problems.push(...linesOfInvalid(page.rows, answer.data.invalid));
    } catch (error) {
      const alert = el('p', { class: 'notice notice-error', role: 'alert' }, pageFailure(page, error));
      const button = el('button', { type: 'button' }, `Retry page ${page.number}`);
      button.addEventListener('click', () => {
        alert.remove();
        button.remove();
        void sendPage(page).then(finish);
      });
      retries.append(alert, button);
    }
    show();
  };

  const finish = (): ImportResult => {
    result.failedPages = pages.filter((page) => !page.written).length;
    announce(result.failedPages === 0 ? 'Import finished' : `Import finished with ${result.failedPages} pages not written`);
    options.done?.({ ...result, problems: [...result.problems] });
    return { ...result };
  };

  const start = async (): Promise<ImportResult | undefined> => {
    const file = input.files?.[0];
    if (!file) return undefined;
    const parsed = membersOfCsv(await file.text());
    replaceChildren(retries);
    if (!parsed.ok) return void replaceChildren(problems, notice(`The file was not imported. ${problemText(parsed.problem)}`));
    Object.assign(result, { added: 0, updated: 0, problems: [...parsed.problems], attributes: parsed.attributes });
    pages = pagesOf(parsed.members).map((rows, index) => ({ number: index + 1, rows, key: idempotencyKey(), written: false }));
    total = parsed.members.length;
    show();
    try {
      result.audienceId = await options.audience();
    } catch (error) {
      return void replaceChildren(problems, notice(describeError(error)));
    }
    for (const page of pages) await sendPage(page);
    return finish();
  };

  return { root: view.root, start, hasFile: () => (input.files?.length ?? 0) > 0 };
}
