/**
 * The templates (`#/templates`, docs/CONSOLE.md "Templates"): for one of the organization's senders,
 * every template `GET /templates?phone_number=&status=all` lists (in review, rejected with Meta's
 * reason, paused, approved) with status, quality, category and what a send needs (`parameters`).
 */
import type { PhoneNumberEntry, TemplateView } from '../model/api-types';
import { needsText, templateLabel } from '../model/template-needs';
import { describeError, getData } from './api';
import { dataTable, el, notice, replaceChildren } from './dom';
import { listTabs } from './paged-list';
import type { PageHandle } from './router';

const HEADERS = ['Template', 'Status', 'Quality', 'Category', 'Rejection reason', 'What a send needs'];

export const readSenders = (): Promise<PhoneNumberEntry[]> => getData<PhoneNumberEntry[]>('/phone-numbers');
/** The sender's templates: the APPROVED ones a campaign may use (the builder), or every status (`all`, the templates screen). */
export const readTemplates = (sender: string, status: 'approved' | 'all' = 'approved'): Promise<TemplateView[]> =>
  getData<TemplateView[]>('/templates', status === 'all' ? { phone_number: sender, status } : { phone_number: sender });

/** A sender choice (the organization's numbers), labelled; `changed` runs on each choice. */
export function senderSelect(id: string, senders: readonly PhoneNumberEntry[], changed: (sender: string) => void): HTMLElement {
  const select = el('select', { id, name: id }, ...senders.map((sender) => el('option', { value: sender.phone_number }, `+${sender.phone_number}`)));
  select.addEventListener('change', () => changed(select.value));
  return el('div', { class: 'field' }, el('label', { for: id }, 'Sender'), select);
}

/** Meta's quality score as a badge (GREEN, YELLOW, RED or UNKNOWN; "—" when Meta gives none). */
export const qualityBadge = (quality: string | undefined): HTMLElement | string =>
  quality ? el('span', { class: `badge badge-quality-${quality.toLowerCase()}` }, quality) : '—';

const rowOf = (template: TemplateView): Array<Node | string> => [
  templateLabel(template),
  el('span', { class: `badge badge-${template.status.toLowerCase()}` }, template.status),
  qualityBadge(template.quality),
  template.category,
  template.rejectedReason ?? '—',
  needsText(template.parameters),
];

export function renderTemplates(main: HTMLElement): PageHandle {
  const heading = el('h2', { tabindex: -1 }, 'Templates');
  const chooser = el('div');
  const body = el('div', {}, el('p', {}, 'Loading…'));
  let shownSender = '';
  const show = async (sender: string) => {
    shownSender = sender;
    replaceChildren(body, el('p', {}, 'Loading…'));
    try {
      const templates = await readTemplates(sender, 'all');
      if (sender !== shownSender) return;
      replaceChildren(
        body,
        templates.length === 0
          ? el('p', {}, 'No templates on this sender.')
          : dataTable(`Templates of +${sender}`, HEADERS, templates.map(rowOf), { class: 'templates' }),
      );
    } catch (error) {
      replaceChildren(body, notice(describeError(error)));
    }
  };
  replaceChildren(
    main,
    listTabs('templates'),
    heading,
    chooser,
    el('p', { class: 'help' }, "Every template of the sender, whatever its status. Only APPROVED templates can be sent; a rejected one shows Meta's reason."),
    body,
  );
  void readSenders()
    .then((senders) => {
      if (senders.length === 0) return void replaceChildren(body, el('p', {}, 'This organization has no connected phone number.'));
      replaceChildren(
        chooser,
        senderSelect('templates-sender', senders, (sender) => void show(sender)),
      );
      void show(senders[0]!.phone_number);
    })
    .catch((error: unknown) => replaceChildren(body, notice(describeError(error))));
  heading.focus();
  return { leave: () => undefined };
}
