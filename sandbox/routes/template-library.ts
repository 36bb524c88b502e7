/**
 * The Template Library: `GET /message_template_library` (browse, with Meta's filters) and the
 * components of a template created from it with `library_template_name` (templates.ts).
 *
 * A library template's text is fixed; the business supplies only what the library leaves open:
 * URL buttons' base URL, phone buttons' number, and for authentication templates the OTP button
 * type and the optional body/footer additions (`library_template_body_inputs`).
 */
import { invalidParameter, requiredParameter } from '../graph-errors';
import { paginate } from '../graph-listing';
import { isRecord, ParamReader, type GraphParams } from '../request-params';
import type { TemplateCategory } from '../sandbox-types';
import { TEMPLATE_LIBRARY, type LibraryButton, type LibraryTemplate } from '../template-library-catalog';
import { ok, rootRoute, type GraphRoute } from './route-kit';

function equalsIgnoringCase(filter: string | null, value: string): boolean {
  return filter === null || filter === '' || filter.toUpperCase() === value.toUpperCase();
}

function searchable(template: LibraryTemplate): string {
  return [template.name, template.header ?? '', template.body, template.topic, template.usecase].join(' ').toLowerCase();
}

export function findLibraryTemplate(name: string, language: string): LibraryTemplate | undefined {
  return TEMPLATE_LIBRARY.find((template) => template.name === name && template.language === language);
}

type ButtonInput = { type: LibraryButton['type']; reader: ParamReader };

function buttonInputs(params: GraphParams): ButtonInput[] {
  const raw = params.optionalArray('library_template_button_inputs', { max: 10 }) ?? [];
  return raw.map((input, index) => {
    const path = `library_template_button_inputs[${index}]`;
    if (!isRecord(input)) throw invalidParameter(`Param ${path} must be a JSON object.`);
    const reader = ParamReader.of(input, path);
    return { type: reader.enumValue('type', ['URL', 'PHONE_NUMBER', 'QUICK_REPLY', 'OTP'] as const, { caseInsensitive: true }), reader };
  });
}

/** The library button with the business's input applied, as a template BUTTONS entry. */
function buildButton(button: LibraryButton, input: ButtonInput | undefined, index: number): Record<string, unknown> {
  const missing = () => requiredParameter(`library_template_button_inputs (a ${button.type} input for button ${index + 1}, "${button.text}")`);
  switch (button.type) {
    case 'QUICK_REPLY':
      return { type: 'QUICK_REPLY', text: button.text };
    case 'URL': {
      if (input === undefined) throw missing();
      const url = input.reader.record('url');
      const base = url.string('base_url', { maxLength: 2000, pattern: /^https:\/\//i, patternHint: 'must be an https:// URL' });
      const suffixExample = url.optionalString('url_suffix_example', { maxLength: 2000 });
      return {
        type: 'URL',
        text: button.text,
        url: base,
        ...(suffixExample === undefined ? {} : { example: [suffixExample] }),
      };
    }
    case 'PHONE_NUMBER': {
      if (input === undefined) throw missing();
      const phone = input.reader.string('phone_number', { maxLength: 20, pattern: /^\+?\d{3,20}$/, patternHint: 'must be a phone number' });
      return { type: 'PHONE_NUMBER', text: button.text, phone_number: phone };
    }
    case 'OTP': {
      const otpType =
        input?.reader.optionalEnum('otp_type', ['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'] as const, { caseInsensitive: true }) ?? button.otp_type ?? 'COPY_CODE';
      const extra: Record<string, unknown> = {};
      if (otpType !== 'COPY_CODE') {
        const apps = input?.reader.optionalArray('supported_apps', { min: 1 });
        if (apps === undefined) throw requiredParameter(`library_template_button_inputs[${index}]['supported_apps']`);
        extra.supported_apps = structuredClone(apps);
      }
      return { type: 'OTP', text: button.text, otp_type: otpType, ...extra };
    }
  }
}

/**
 * Components for `POST /{waba-id}/message_templates` with `library_template_name`: the library's
 * text with the business's button (and authentication body) inputs.
 */
export function libraryTemplateComponents(
  params: GraphParams,
  libraryName: string,
  language: string,
  category: TemplateCategory,
): Array<Record<string, unknown>> {
  const entry = findLibraryTemplate(libraryName, language);
  if (entry === undefined) {
    throw invalidParameter(`Param library_template_name: the Template Library has no template ${libraryName} in ${language}.`);
  }
  if (entry.category !== category) throw invalidParameter(`Param category must be ${entry.category} for library template ${libraryName}.`);

  const inputs = buttonInputs(params);
  const buttons = entry.buttons ?? [];
  const unused = [...inputs];
  const built = buttons.map((button, index) => {
    const at = unused.findIndex((input) => input.type === button.type);
    const input = at < 0 ? undefined : unused.splice(at, 1)[0];
    return buildButton(button, input, index);
  });
  const extra = unused.find((input) => input.type !== 'QUICK_REPLY');
  if (extra !== undefined) throw invalidParameter(`Param library_template_button_inputs has a ${extra.type} input, but ${libraryName} has no such button.`);

  const components: Array<Record<string, unknown>> = [];
  if (entry.header !== undefined) components.push({ type: 'HEADER', format: 'TEXT', text: entry.header });
  if (entry.category === 'AUTHENTICATION') {
    const bodyInputs = params.optionalRecord('library_template_body_inputs');
    const security = bodyInputs?.optionalBoolean('add_security_recommendation') ?? false;
    const expiry = bodyInputs?.optionalInteger('code_expiration_minutes', { min: 1, max: 90 });
    components.push({ type: 'BODY', add_security_recommendation: security });
    if (expiry !== undefined) components.push({ type: 'FOOTER', code_expiration_minutes: expiry });
  } else {
    components.push({ type: 'BODY', text: entry.body, ...(entry.body_params === undefined ? {} : { example: { body_text: [entry.body_params] } }) });
  }
  if (built.length > 0) components.push({ type: 'BUTTONS', buttons: built });
  return components;
}

export const templateLibraryRoutes: GraphRoute[] = [
  rootRoute('GET', 'message_template_library', (context) => {
    const { query } = context;
    const search = query.get('search')?.toLowerCase() ?? '';
    const industry = query.get('industry');
    const items = TEMPLATE_LIBRARY.filter(
      (template) =>
        (search === '' || searchable(template).includes(search)) &&
        equalsIgnoringCase(query.get('topic'), template.topic) &&
        equalsIgnoringCase(query.get('usecase'), template.usecase) &&
        equalsIgnoringCase(query.get('language'), template.language) &&
        (query.get('name') === null || query.get('name') === template.name) &&
        (industry === null || industry === '' || template.industry.some((value) => value.toUpperCase() === industry.toUpperCase())),
    ).map((template) => structuredClone(template) as unknown as Record<string, unknown> & { id: string });
    return ok(paginate(items, query, context.request.url));
  }),
];
