/**
 * The builder's audience and template steps (docs/CONSOLE.md "New campaign"): an audience of the
 * list (or a CSV uploaded as a new one), whose first members give the attribute names offered and the
 * members previewed; and the sender's templates from the live list, only the approved ones the
 * builder can fill selectable, each with its status, quality and category.
 */
import type { AudienceMemberRow, AudiencesPage, AudienceSummary, MembersPage, TemplateView } from '../model/api-types';
import { formatCount } from '../model/format';
import { templateLabel, unsupportedInBuilder } from '../model/template-needs';
import { attributeNamesOf } from '../model/whatsapp-preview';
import { describeError, getData } from './api';
import { newAudienceForm } from './audiences-page';
import { el, notice, replaceChildren } from './dom';
import { qualityBadge, readTemplates } from './templates-page';

/** Members read for the attribute names offered; the first three are previewed. */
const MEMBERS_READ = 100;

export interface AudienceStep {
  root: HTMLElement;
  audienceId(): string;
  load(select?: string): Promise<void>;
}

export function createAudienceStep(membersRead: (members: AudienceMemberRow[]) => void): AudienceStep {
  const select = el('select', { id: 'campaign-audience' }, el('option', { value: '' }, 'Loading…'));
  const note = el('p', { class: 'help', role: 'status' });
  const loadMembers = async () => {
    membersRead([]);
    const audienceId = select.value;
    if (!audienceId) return;
    try {
      const page = await getData<MembersPage>(`/audiences/${encodeURIComponent(audienceId)}/members`, { limit: MEMBERS_READ });
      if (select.value !== audienceId) return;
      replaceChildren(note, `Attributes of its first ${formatCount(page.members.length)} members: ${attributeNamesOf(page.members).join(', ') || 'none'}.`);
      membersRead(page.members);
    } catch (error) {
      replaceChildren(note, notice(describeError(error)));
    }
  };
  const load = async (chosen?: string) => {
    try {
      const page = await getData<AudiencesPage>('/audiences', { limit: 100 });
      const option = (audience: AudienceSummary) =>
        el(
          'option',
          { value: audience.audienceId, selected: audience.audienceId === chosen },
          `${audience.name} (${formatCount(audience.memberCount)} members)`,
        );
      replaceChildren(select, el('option', { value: '' }, 'Choose an audience'), ...page.audiences.map(option));
      if (chosen) await loadMembers();
    } catch (error) {
      replaceChildren(note, notice(describeError(error)));
    }
  };
  select.addEventListener('change', () => void loadMembers());
  const root = el(
    'div',
    {},
    el('div', { class: 'field' }, el('label', { for: 'campaign-audience' }, 'Audience'), select),
    note,
    el(
      'details',
      { class: 'builder-upload' },
      el('summary', {}, 'Or upload a CSV file as a new audience'),
      newAudienceForm('builder-audience-new', (audienceId) => void load(audienceId)),
    ),
  );
  return { root, audienceId: () => select.value, load };
}

function templateChoice(template: TemplateView, chosen: (template: TemplateView) => void): HTMLElement {
  const id = `template-${template.name}-${template.language}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const refusal = template.status !== 'APPROVED' ? `not approved (${template.status})` : unsupportedInBuilder(template.parameters);
  const radio = el('input', { type: 'radio', name: 'template', id, value: id, disabled: refusal !== undefined, 'aria-describedby': `${id}-facts` });
  radio.addEventListener('change', () => chosen(template));
  return el(
    'div',
    { class: 'template-choice' },
    radio,
    el('label', { for: id }, templateLabel(template)),
    el(
      'span',
      { id: `${id}-facts`, class: 'state-note' },
      ' ',
      el('span', { class: `badge badge-${template.status.toLowerCase()}` }, template.status),
      ' quality ',
      qualityBadge(template.quality),
      ` ${template.category}`,
      refusal ? ` · ${refusal}` : '',
    ),
  );
}

/** The sender's templates as radio buttons; `chosen` runs on a choice. */
export function createTemplateStep(chosen: (template: TemplateView) => void): { root: HTMLElement; load(sender: string): Promise<void> } {
  const root = el('fieldset', { class: 'templates-choice' }, el('legend', {}, 'Approved templates of the sender'), el('p', {}, 'Loading…'));
  const load = async (sender: string) => {
    try {
      const templates = await readTemplates(sender);
      const choices =
        templates.length === 0 ? [el('p', {}, 'No approved templates on this sender.')] : templates.map((template) => templateChoice(template, chosen));
      replaceChildren(root, el('legend', {}, `Approved templates of +${sender}`), ...choices);
    } catch (error) {
      replaceChildren(root, el('legend', {}, 'Templates'), notice(describeError(error)));
    }
  };
  return { root, load };
}
