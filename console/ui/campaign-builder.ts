/**
 * A new campaign (`#/campaigns/new`, docs/CONSOLE.md "New campaign"): name, sender and when; an
 * audience (or a CSV imported as a new one); an approved template from the live list; one value per
 * need; the message for three members as WhatsApp shows it; then the draft, its dry run, and the
 * launch or schedule behind a confirmation naming the count and the cost (builder-check.ts).
 */
import type { AudienceMemberRow, TemplateView } from '../model/api-types';
import { campaignBody, draftProblem, scheduleOf } from '../model/campaign-draft';
import { badTrackedUrl, campaignValuesOf, missingNeed, needsOf, type Need } from '../model/template-needs';
import { attributeNamesOf, previewFor } from '../model/whatsapp-preview';
import { describeError } from './api';
import { createCheckStep, type CheckForm } from './builder-check';
import { createMeasurementFields, type MeasurementFields } from './builder-measurement';
import { createRespectFields, type RespectFields } from './builder-respect';
import { memberPreview } from './builder-preview';
import { createAudienceStep, createTemplateStep } from './builder-steps';
import { createValueFields, type ValueFields } from './builder-values';
import { el, notice, replaceChildren, section } from './dom';
import { listTabs } from './paged-list';
import type { PageHandle } from './router';
import { readSenders, senderSelect } from './templates-page';
import { who } from './who';

const PREVIEWED = 3;

/** Steps 2 to 7: each one's section id and title, in order. */
const LATER_STEPS = [
  ['builder-audience', '2. Audience'],
  ['builder-template', '3. Template'],
  ['builder-values', '4. Values'],
  ['builder-preview', '5. Preview for three members'],
  ['builder-respect', '6. Respecting the people on the list'],
  ['builder-check', '7. Check and launch'],
] as const;

/** The first step: the name, the sender (filled once the senders are read) and when. */
const campaignSection = (name: HTMLInputElement, senderBox: HTMLElement, when: HTMLInputElement, measurement: MeasurementFields): HTMLElement =>
  section(
    'builder-campaign',
    '1. Campaign',
    el('div', { class: 'field' }, el('label', { for: 'campaign-name' }, 'Campaign name'), name),
    senderBox,
    el('div', { class: 'field' }, el('label', { for: 'campaign-when' }, 'Schedule for (optional)'), when),
    el('p', { id: 'campaign-when-help', class: 'help' }, 'Empty: sent when launched. A time at least 5 minutes and at most 35 days ahead, in your time zone.'),
    measurement.root,
  );

/** A tracked link's destination that is not https (issue 38), else the measurement's problem, in words. */
function valuesProblem(needs: readonly Need[], fields: ValueFields | undefined, measurementProblem: string | undefined): string | undefined {
  const badLink = badTrackedUrl(needs, fields?.mappings() ?? {});
  return badLink ? `${badLink.label}: give an https:// address of at most 2,000 characters, or a member's attribute.` : measurementProblem;
}

/** What the builder holds when its check step reads it. */
interface BuilderState {
  name: string;
  when: string;
  sender: string;
  audienceId: string;
  template: TemplateView | undefined;
  needs: readonly Need[];
  fields: ValueFields | undefined;
  measurement: MeasurementFields;
  respect: RespectFields;
}

/** The check step's form: the first problem in the order of the steps, or the campaign's body. */
function checkFormOf({ name, when, sender, audienceId, template, needs, fields, measurement, respect }: BuilderState): CheckForm {
  const missing = missingNeed(needs, fields?.mappings() ?? {});
  const scheduledAt = scheduleOf(when);
  const measured = measurement.read();
  const rules = respect.read();
  const problem =
    draftProblem({ name, audienceId, hasTemplate: template !== undefined, missing, when }) ?? valuesProblem(needs, fields, measured.problem) ?? rules.problem;
  if (problem || !template) return { problem: problem ?? 'Choose a template.', body: {}, templateName: '' };
  const body = campaignBody({
    name: name.trim(),
    fromPhoneNumber: sender,
    audienceId,
    template,
    values: campaignValuesOf(needs, fields?.mappings() ?? {}),
    scheduledAt,
    ...measured.values,
    sendRules: rules.values,
  });
  return { body, templateName: template.name, ...(scheduledAt ? { scheduledAt } : {}) };
}

/**
 * Reads the organization's senders into the first step: `use` runs with the first one once the
 * choice is shown, `changed` with each one chosen later.
 */
function offerSenders(senderBox: HTMLElement, use: (sender: string) => void, changed: (sender: string) => void): void {
  void readSenders()
    .then((senders) => {
      if (senders.length === 0) return void replaceChildren(senderBox, notice('This organization has no connected phone number.'));
      replaceChildren(senderBox, senderSelect('campaign-sender', senders, changed));
      use(senders[0]!.phone_number);
    })
    .catch((error: unknown) => replaceChildren(senderBox, notice(describeError(error))));
}

export function renderCampaignBuilder(main: HTMLElement): PageHandle {
  // A viewer may not create a campaign (the API would answer 403): say so instead of a form.
  if (!who.allows('createCampaign')) {
    replaceChildren(main, el('h2', { tabindex: -1 }, 'New campaign'), notice('Your role cannot create campaigns: a campaign manager or an admin can.', 'info'));
    return { leave: () => undefined };
  }
  const heading = el('h2', { tabindex: -1 }, 'New campaign');
  const name = el('input', { id: 'campaign-name', type: 'text', required: true, maxlength: 200 });
  const when = el('input', { id: 'campaign-when', type: 'datetime-local', 'aria-describedby': 'campaign-when-help' });
  const senderBox = el('div', {}, 'Loading senders…');
  const valuesBox = el('div', {}, el('p', {}, 'Choose a template first.'));
  const previewBox = el('div', { class: 'previews', 'aria-live': 'polite' }, el('p', {}, 'Choose an audience and a template.'));
  let sender = '';
  let template: TemplateView | undefined;
  let needs: Need[] = [];
  let fields: ValueFields | undefined;
  let members: AudienceMemberRow[] = [];

  const values = () => campaignValuesOf(needs, fields?.mappings() ?? {});
  const drawPreview = () => {
    checkStep.invalidate();
    if (!template) return;
    if (members.length === 0) return void replaceChildren(previewBox, el('p', {}, 'The audience has no members to preview.'));
    replaceChildren(previewBox, ...members.slice(0, PREVIEWED).map((member) => memberPreview(member, previewFor(template!, values(), member))));
  };
  const audienceStep = createAudienceStep((read) => {
    members = read;
    fields?.offer(attributeNamesOf(members));
    drawPreview();
  });
  const templateStep = createTemplateStep((chosen) => {
    template = chosen;
    needs = needsOf(chosen.parameters);
    fields = createValueFields(needs, drawPreview);
    fields.offer(attributeNamesOf(members));
    replaceChildren(valuesBox, fields.root);
    drawPreview();
  });
  const form = (): CheckForm =>
    checkFormOf({ name: name.value, when: when.value, sender, audienceId: audienceStep.audienceId(), template, needs, fields, measurement, respect });
  const checkStep = createCheckStep(form);
  const measurement = createMeasurementFields(checkStep.invalidate);
  const respect = createRespectFields(checkStep.invalidate);
  for (const input of [name, when]) input.addEventListener('input', checkStep.invalidate);

  const steps = [audienceStep.root, templateStep.root, valuesBox, previewBox, respect.root, checkStep.root];
  replaceChildren(
    main,
    listTabs(),
    heading,
    campaignSection(name, senderBox, when, measurement),
    ...LATER_STEPS.map(([id, title], index) => section(id, title, steps[index])),
  );
  offerSenders(
    senderBox,
    (first) => {
      sender = first;
      void templateStep.load(sender);
    },
    (chosen) => {
      sender = chosen;
      template = undefined;
      replaceChildren(valuesBox, el('p', {}, 'Choose a template first.'));
      void templateStep.load(sender);
    },
  );
  void audienceStep.load();
  heading.focus();
  return { leave: () => undefined };
}
