/**
 * A new campaign (`#/campaigns/new`, docs/CONSOLE.md "New campaign"): name, sender and when; an
 * audience (or a CSV imported as a new one); an approved template from the live list; one value per
 * need; the message for three members as WhatsApp shows it; then the draft (`POST /campaigns`), its
 * dry run, and the launch or schedule behind a confirmation naming the count and the cost.
 */
import type { AudienceMemberRow, AudiencesPage, AudienceSummary, CampaignCreated, CampaignDryRunAnswer, MembersPage, TemplateView } from '../model/api-types';
import { campaignBody, confirmationText, dryRunRows, limitPlanLines, scheduleOf } from '../model/campaign-draft';
import { formatCount } from '../model/format';
import { campaignValuesOf, missingNeed, needsOf, templateLabel, unsupportedInBuilder, type Need } from '../model/template-needs';
import { attributeNamesOf, previewFor } from '../model/whatsapp-preview';
import { describeError, getData, sendData } from './api';
import { newAudienceForm } from './audiences-page';
import { createValueFields, type ValueFields } from './builder-values';
import { memberPreview } from './builder-preview';
import { announce, dataTable, el, notice, replaceChildren, section } from './dom';
import { openLaunchDialog } from './launch-dialog';
import { listTabs } from './paged-list';
import type { PageHandle } from './router';
import { qualityBadge, readSenders, readTemplates, senderSelect } from './templates-page';

/** Members read for the attribute names offered; the first three are previewed. */
const MEMBERS_READ = 100;
const PREVIEWED = 3;

interface Draft {
  campaignId: string;
  body: string;
  dryRun?: CampaignDryRunAnswer;
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
    el('span', { id: `${id}-facts`, class: 'state-note' }, ' ', el('span', { class: `badge badge-${template.status.toLowerCase()}` }, template.status), ' quality ', qualityBadge(template.quality), ` ${template.category}`, refusal ? ` · ${refusal}` : ''),
  );
}

export function renderCampaignBuilder(main: HTMLElement): PageHandle {
  const heading = el('h2', { tabindex: -1 }, 'New campaign');
  const name = el('input', { id: 'campaign-name', type: 'text', required: true, maxlength: 200 });
  const when = el('input', { id: 'campaign-when', type: 'datetime-local', 'aria-describedby': 'campaign-when-help' });
  const senderBox = el('div', {}, 'Loading senders…');
  const audienceSelect = el('select', { id: 'campaign-audience' }, el('option', { value: '' }, 'Loading…'));
  const audienceNote = el('p', { class: 'help', role: 'status' });
  const templateBox = el('fieldset', { class: 'templates-choice' }, el('legend', {}, 'Approved templates of the sender'), el('p', {}, 'Loading…'));
  const valuesBox = el('div', {}, el('p', {}, 'Choose a template first.'));
  const previewBox = el('div', { class: 'previews', 'aria-live': 'polite' }, el('p', {}, 'Choose an audience and a template.'));
  const checkResult = el('div', { 'aria-live': 'polite' });
  const check = el('button', { type: 'button', class: 'primary' }, 'Create draft and check (dry run)');
  const launch = el('button', { type: 'button', class: 'primary', hidden: true }, 'Launch…');
  let sender = '';
  let template: TemplateView | undefined;
  let needs: Need[] = [];
  let fields: ValueFields | undefined;
  let members: AudienceMemberRow[] = [];
  let draft: Draft | undefined;
  let left = false;

  const values = () => campaignValuesOf(needs, fields?.mappings() ?? {});
  const drawPreview = () => {
    launch.hidden = true;
    if (!template) return;
    if (members.length === 0) return void replaceChildren(previewBox, el('p', {}, 'The audience has no members to preview.'));
    const shown = members.slice(0, PREVIEWED);
    replaceChildren(previewBox, ...shown.map((member) => memberPreview(member, previewFor(template!, values(), member))));
  };

  const chooseTemplate = (chosen: TemplateView) => {
    template = chosen;
    needs = needsOf(chosen.parameters);
    fields = createValueFields(needs, drawPreview);
    fields.offer(attributeNamesOf(members));
    replaceChildren(valuesBox, fields.root);
    drawPreview();
  };

  const loadTemplates = async () => {
    template = undefined;
    try {
      const templates = await readTemplates(sender);
      replaceChildren(templateBox, el('legend', {}, `Approved templates of +${sender}`), ...(templates.length === 0 ? [el('p', {}, 'No approved templates on this sender.')] : templates.map((item) => templateChoice(item, chooseTemplate))));
    } catch (error) {
      replaceChildren(templateBox, el('legend', {}, 'Templates'), notice(describeError(error)));
    }
  };

  const loadMembers = async () => {
    members = [];
    const audienceId = audienceSelect.value;
    if (!audienceId) return;
    try {
      const page = await getData<MembersPage>(`/audiences/${encodeURIComponent(audienceId)}/members`, { limit: MEMBERS_READ });
      if (left || audienceSelect.value !== audienceId) return;
      members = page.members;
      const attributes = attributeNamesOf(members);
      fields?.offer(attributes);
      replaceChildren(audienceNote, `Attributes of its first ${formatCount(members.length)} members: ${attributes.join(', ') || 'none'}.`);
      drawPreview();
    } catch (error) {
      replaceChildren(audienceNote, notice(describeError(error)));
    }
  };

  const loadAudiences = async (select?: string) => {
    try {
      const page = await getData<AudiencesPage>('/audiences', { limit: 100 });
      const option = (audience: AudienceSummary) => el('option', { value: audience.audienceId, selected: audience.audienceId === select }, `${audience.name} (${formatCount(audience.memberCount)} members)`);
      replaceChildren(audienceSelect, el('option', { value: '' }, 'Choose an audience'), ...page.audiences.map(option));
      if (select) await loadMembers();
    } catch (error) {
      replaceChildren(audienceNote, notice(describeError(error)));
    }
  };

  const formProblem = (): string | undefined => {
    if (name.value.trim() === '') return 'Give the campaign a name.';
    if (!audienceSelect.value) return 'Choose an audience.';
    if (!template) return 'Choose a template.';
    const missing = missingNeed(needs, fields?.mappings() ?? {});
    if (missing) return `Give a value for ${missing.label}.`;
    if (when.value !== '' && !scheduleOf(when.value)) return 'The schedule is not a time.';
    return undefined;
  };

  const runCheck = async () => {
    const problem = formProblem();
    if (problem) return void replaceChildren(checkResult, notice(problem));
    const body = campaignBody({ name: name.value.trim(), fromPhoneNumber: sender, audienceId: audienceSelect.value, template: template!, values: values(), scheduledAt: scheduleOf(when.value) });
    const text = JSON.stringify(body);
    check.disabled = true;
    launch.hidden = true;
    replaceChildren(checkResult, 'Creating the draft and running the dry run…');
    try {
      if (draft?.body !== text) {
        // A changed campaign is a new draft; the old one is cancelled so it is never launched by mistake.
        if (draft) await sendData('POST', `/campaigns/${encodeURIComponent(draft.campaignId)}/cancel`).catch(() => undefined);
        const created = await sendData<CampaignCreated>('POST', '/campaigns', { body });
        draft = { campaignId: created.data.campaignId, body: text };
      }
      const answer = await sendData<CampaignDryRunAnswer>('POST', `/campaigns/${encodeURIComponent(draft.campaignId)}/launch`, { query: { dryRun: true } });
      draft.dryRun = answer.data;
      replaceChildren(
        checkResult,
        el('p', {}, `Draft ${draft.campaignId} created. Nothing was sent.`),
        dataTable('Dry run: nothing was sent', ['', 'Members'], dryRunRows(answer.data), { class: 'dry-run' }),
        el('h4', {}, "Plan within Meta's messaging limit"),
        el('ul', { class: 'limit-plan' }, ...limitPlanLines(answer.data.messagingLimit).map((line) => el('li', {}, line))),
      );
      launch.textContent = scheduleOf(when.value) ? 'Schedule…' : 'Launch…';
      launch.hidden = false;
      launch.disabled = answer.data.sendable === 0;
      announce('Dry run ready');
    } catch (error) {
      replaceChildren(checkResult, notice(describeError(error)));
    } finally {
      check.disabled = false;
    }
  };

  check.addEventListener('click', () => void runCheck());
  launch.addEventListener('click', () => {
    if (!draft?.dryRun || !template) return;
    const scheduledAt = scheduleOf(when.value);
    openLaunchDialog(draft.campaignId, confirmationText(draft.dryRun, template.name, scheduledAt), scheduledAt !== undefined);
  });
  audienceSelect.addEventListener('change', () => void loadMembers());
  for (const input of [name, when]) input.addEventListener('input', () => (launch.hidden = true));

  replaceChildren(
    main,
    listTabs(),
    heading,
    section(
      'builder-campaign',
      '1. Campaign',
      el('div', { class: 'field' }, el('label', { for: 'campaign-name' }, 'Campaign name'), name),
      senderBox,
      el('div', { class: 'field' }, el('label', { for: 'campaign-when' }, 'Schedule for (optional)'), when),
      el('p', { id: 'campaign-when-help', class: 'help' }, 'Empty: sent when launched. A time at least 5 minutes and at most 35 days ahead, in your time zone.'),
    ),
    section(
      'builder-audience',
      '2. Audience',
      el('div', { class: 'field' }, el('label', { for: 'campaign-audience' }, 'Audience'), audienceSelect),
      audienceNote,
      el('details', { class: 'builder-upload' }, el('summary', {}, 'Or upload a CSV file as a new audience'), newAudienceForm('builder-audience-new', (audienceId) => void loadAudiences(audienceId))),
    ),
    section('builder-template', '3. Template', templateBox),
    section('builder-values', '4. Values', valuesBox),
    section('builder-preview', '5. Preview for three members', previewBox),
    section('builder-check', '6. Check and launch', el('div', { class: 'actions' }, check, launch), checkResult),
  );
  void readSenders()
    .then((senders) => {
      if (left) return;
      if (senders.length === 0) return void replaceChildren(senderBox, notice('This organization has no connected phone number.'));
      sender = senders[0]!.phone_number;
      replaceChildren(senderBox, senderSelect('campaign-sender', senders, (chosen) => {
        sender = chosen;
        replaceChildren(valuesBox, el('p', {}, 'Choose a template first.'));
        void loadTemplates();
      }));
      void loadTemplates();
    })
    .catch((error: unknown) => replaceChildren(senderBox, notice(describeError(error))));
  void loadAudiences();
  heading.focus();
  return {
    leave: () => {
      left = true;
    },
  };
}
