/**
 * Whether a checked recipients file and the send's common values fit the chosen template, and the
 * request fields they make, before any request is sent. With the template's `parameters` (the
 * service's template list): every value column and option is one the template takes, every value
 * it needs is given by a column or an option, positional parameters match its count, named ones
 * its names; then the options become the broadcast-level fields and each row's own cells its
 * recipient's (the row's cell wins). Without them (an older service) the file is checked as
 * before: param columns against the body's placeholders, no other column, no common value.
 * File problems throw RecipientsFileError (`line 3: button0 is required: …`), option problems
 * CliUsageError naming the option.
 */
import { bodyPlaceholderCount } from '../../shared/broadcast/template-placeholders';
import { buttonKind } from './button-kind';
import { carouselProblems } from './carousel-file';
import { optionNameOf, type CommonValues } from './common-values';
import { CliUsageError, RecipientsFileError } from './errors';
import { headerKind } from './header-kind';
import { namedKind } from './named-kind';
import type { RecipientsFile } from './recipients-csv';
import type { BroadcastFields, ColumnValues, RowFields } from './request-fields';
import type { PlanRecipient } from './send-plan';
import { NO_BODY_PARAMETERS, templateLabel, type TemplateParameters } from './template-parameters';
import { either, valueOf, type Built, type RequiredValue, type ValueKind } from './value-kinds';

export interface FittedFile {
  recipients: PlanRecipient[];
  broadcastFields: BroadcastFields;
}

interface Template {
  name: string;
  language: string;
}

interface Kinds {
  header: ValueKind<NonNullable<RowFields['header']>>;
  buttons: ValueKind<NonNullable<RowFields['buttons']>>;
  named: ValueKind<Record<string, string>>;
}

/** Every kind, for what they share: claiming columns, refusing them, required values. */
const kindsOf = (kinds: Kinds): ReadonlyArray<ValueKind<unknown>> => [kinds.header, kinds.buttons, kinds.named];
const requiredOf = (kinds: Kinds): RequiredValue[] => kindsOf(kinds).flatMap((kind) => [...kind.required]);

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The template's parameter-count rule, in the words the CLI has always used. */
function countProblem(template: Template, expected: number, file: RecipientsFile): string[] {
  if (expected === file.parameterCount) return [];
  return [
    `line 1: template ${templateLabel(template)} has ${plural(expected, 'body parameter')}; the file has ${plural(file.parameterCount, 'param column')} (param1 … paramN, one per parameter)`,
  ];
}

/** Option problems: values the template does not take, its limited-time offer and carousel. */
function optionProblems(template: Template, parameters: TemplateParameters, kinds: Kinds, common: CommonValues): string[] {
  const label = templateLabel(template);
  const problems = Object.keys(common.columns).flatMap((column) => {
    const kind = kindsOf(kinds).find((candidate) => candidate.claims(column));
    const body = parameters.body ?? NO_BODY_PARAMETERS;
    const reason = kind
      ? kind.refusal(column)
      : body.format === 'NAMED'
        ? `template ${label} has no named parameter ${column} (it has ${body.names.join(', ')})`
        : `template ${label} has no named parameters (its body parameters are positional: param1 … paramN columns)`;
    return reason ? [`${optionNameOf(column)}: ${reason}`] : [];
  });
  const offer = parameters.limitedTimeOffer;
  if (offer?.hasExpiration && !common.limitedTimeOffer)
    problems.push(`--limited-time-offer is required: template ${label} has a limited-time offer with an expiry`);
  if (!offer && common.limitedTimeOffer) problems.push(`--limited-time-offer: template ${label} has no limited-time offer`);
  problems.push(...carouselProblems(parameters.carousel, common.carousel, label));
  return problems;
}

/** The columns a template takes, for an unknown column's message. */
function takenColumns(parameters: TemplateParameters, kinds: Kinds): string {
  const body = parameters.body ?? NO_BODY_PARAMETERS;
  const positional = body.format === 'POSITIONAL' && body.count > 0 ? [body.count === 1 ? 'param1' : `param1 … param${body.count}`] : [];
  const rest = [...positional, ...kinds.named.columns, ...kinds.header.columns, ...kinds.buttons.columns];
  return `countryCode and toPhoneNumber, or phone${rest.length > 0 ? `; then ${rest.join(', ')}` : ''}`;
}

/** Line-1 problems: columns the template does not take, parameters that do not match, values given nowhere. */
function columnProblems(template: Template, parameters: TemplateParameters, kinds: Kinds, file: RecipientsFile, common: CommonValues): string[] {
  const label = templateLabel(template);
  const problems = (file.valueColumns ?? []).flatMap((column) => {
    const kind = kindsOf(kinds).find((candidate) => candidate.claims(column));
    if (!kind) return [`line 1: unknown column "${column}" (template ${label} takes ${takenColumns(parameters, kinds)})`];
    const reason = kind.refusal(column);
    return reason ? [`line 1: column ${column}: ${reason}`] : [];
  });
  const body = parameters.body ?? NO_BODY_PARAMETERS;
  if (body.format === 'POSITIONAL') problems.push(...countProblem(template, body.count, file));
  else if (file.parameterCount > 0) {
    const columns = file.parameterCount === 1 ? 'param1' : `param1 … param${file.parameterCount}`;
    problems.push(`line 1: ${columns}: template ${label} has named parameters (${body.names.join(', ')}): name the columns after them`);
  }
  const columns = new Set(file.valueColumns ?? []);
  for (const need of requiredOf(kinds)) {
    if (need.columns.some((column) => columns.has(column) || common.columns[column])) continue;
    const options = need.columns.map(optionNameOf);
    problems.push(`line 1: ${either(need.columns)} is required: ${need.because}; add a ${either(need.columns)} column or give ${either(options)}`);
  }
  return problems;
}

/** The field of `built`, its problems added to `problems`. */
function take<Field>(built: Built<Field>, problems: string[]): Field | undefined {
  problems.push(...built.problems);
  return built.field;
}

function broadcastFieldsOf(kinds: Kinds, common: CommonValues): BroadcastFields {
  const problems: string[] = [];
  const header = take(kinds.header.build(common.columns, optionNameOf), problems);
  const buttons = take(kinds.buttons.build(common.columns, optionNameOf), problems);
  const named = take(kinds.named.build(common.columns, optionNameOf), problems);
  if (problems.length > 0) throw new CliUsageError(problems.join('\n'));
  return {
    ...(header ? { header } : {}),
    ...(buttons ? { buttons } : {}),
    ...(named ? { globalTemplateParams: named } : {}),
    ...(common.carousel ? { carousel: common.carousel.cards } : {}),
    ...(common.limitedTimeOffer ? { limitedTimeOffer: { expiresAt: common.limitedTimeOffer } } : {}),
  };
}

/** One row's own fields, or its problems (without the line). */
function rowFieldsOf(kinds: Kinds, cells: ColumnValues, common: ColumnValues): { fields: RowFields; problems: string[] } {
  const problems: string[] = [];
  for (const need of requiredOf(kinds)) {
    if (!need.columns.some((column) => valueOf(column, cells, common))) problems.push(`${either(need.columns)} is required: ${need.because}`);
  }
  const own = (column: string) => column;
  const headerValues = kinds.header.rowValues(cells, common);
  const buttonValues = kinds.buttons.rowValues(cells, common);
  const namedValues = kinds.named.rowValues(cells, common);
  const header = headerValues && take(kinds.header.build(headerValues, own), problems);
  const buttons = buttonValues && take(kinds.buttons.build(buttonValues, own), problems);
  const templateParams = namedValues && take(kinds.named.build(namedValues, own), problems);
  return { fields: { ...(header ? { header } : {}), ...(buttons ? { buttons } : {}), ...(templateParams ? { templateParams } : {}) }, problems };
}

/**
 * The file and common values fitted to a template the service describes (`parameters`).
 *
 * @example
 * fitTemplate({ name: 'welcome_named', language: 'en' }, { sendable: true, body: { format: 'NAMED', names: ['first_name'] } }, file, noCommonValues);
 * // { recipients: [{ line: 2, countryCode: '44', toPhoneNumber: '7700900123', templateParams: { first_name: 'Ada' } }], broadcastFields: {} }
 */
export function fitTemplate(template: Template, parameters: TemplateParameters, file: RecipientsFile, common: CommonValues): FittedFile {
  const label = templateLabel(template);
  const kinds: Kinds = {
    header: headerKind(parameters.header, label),
    buttons: buttonKind(parameters.buttons, label),
    named: namedKind(parameters.body ?? NO_BODY_PARAMETERS),
  };
  const byOption = optionProblems(template, parameters, kinds, common);
  if (byOption.length > 0) throw new CliUsageError(byOption.join('\n'));
  const byColumn = columnProblems(template, parameters, kinds, file, common);
  if (byColumn.length > 0) throw new RecipientsFileError(byColumn);
  const broadcastFields = broadcastFieldsOf(kinds, common);

  const problems: string[] = [];
  const recipients = file.recipients.map((recipient): PlanRecipient => {
    const { fields, problems: rowProblems } = rowFieldsOf(kinds, recipient.cells ?? {}, common.columns);
    problems.push(...rowProblems.map((problem) => `line ${recipient.line}: ${problem}`));
    const { cells: _cells, ...plain } = recipient;
    return { ...plain, ...fields, templateParams: fields.templateParams ?? recipient.templateParams };
  });
  if (problems.length > 0) throw new RecipientsFileError(problems);
  return { recipients, broadcastFields };
}

/**
 * The file checked as before issue 24, for a service whose template list has no `parameters`:
 * param columns against the body's placeholders, no other column, no common value.
 */
export function fitWithoutParameters(
  template: Template & { components?: ReadonlyArray<Record<string, unknown>> },
  file: RecipientsFile,
  common: CommonValues,
): FittedFile {
  const given = [
    ...Object.keys(common.columns).map(optionNameOf),
    ...(common.limitedTimeOffer ? ['--limited-time-offer'] : []),
    ...(common.carousel ? ['--carousel-file'] : []),
  ];
  if (given.length > 0) {
    throw new CliUsageError(
      `${given.join(', ')}: the service lists template ${templateLabel(template)} without its parameters (an older version), so header, button, named-parameter, limited-time-offer and carousel values can be neither checked nor sent`,
    );
  }
  const problems = (file.valueColumns ?? []).map(
    (column) => `line 1: unknown column "${column}" (expected countryCode and toPhoneNumber, or phone; then param1 … paramN)`,
  );
  if (problems.length > 0) throw new RecipientsFileError(problems);
  const placeholders = bodyPlaceholderCount({
    components: (template.components ?? []).map((component) => ({
      type: String(component.type ?? ''),
      ...(typeof component.text === 'string' ? { text: component.text } : {}),
    })),
  });
  const mismatch = countProblem(template, placeholders, file);
  if (mismatch.length > 0) throw new RecipientsFileError(mismatch);
  return { recipients: file.recipients.map(({ cells: _cells, ...recipient }) => recipient), broadcastFields: {} };
}
