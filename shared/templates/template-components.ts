/**
 * Meta's `template.components` for one send, built from the body values and the content checked
 * at accept time (content-check.ts). The content is self-describing (each part says its kind), so
 * the template's definition is not needed here; only the names of a named template's header and
 * URL variables, which a request gives as plain values, travel with it (`VariableNames`).
 * Shapes: `../shared/meta/template-components.md` §2–§6.
 */
import type { ButtonContent, CardContent, HeaderContent, TemplateContent, TemplateParameters } from './template-content.schema';
import type { TemplateRequirements } from './template-requirements';

/** A named template's header variable and URL-button variables (by button index), which Meta wants as `parameter_name`. */
export interface VariableNames {
  header?: string;
  buttons?: Record<string, string>;
}

type Component = Record<string, unknown>;

/**
 * The variable names a send of a template with `requirements` must carry, undefined when none.
 *
 * @example
 * variableNamesOf({ sendable: true, header: { type: 'TEXT', dynamic: true, name: 'sale' }, body: { format: 'NAMED', names: [] } }); // { header: 'sale' }
 */
export function variableNamesOf(requirements: TemplateRequirements): VariableNames | undefined {
  const header = requirements.header?.type === 'TEXT' ? requirements.header.name : undefined;
  const named = (requirements.buttons ?? []).filter((button) => button.name !== undefined);
  if (header === undefined && named.length === 0) return undefined;
  return {
    ...(header !== undefined && { header }),
    ...(named.length > 0 && { buttons: Object.fromEntries(named.map((button) => [String(button.index), button.name!])) }),
  };
}

const named = (name: string | undefined) => (name === undefined ? {} : { parameter_name: name });

function headerParameter(header: HeaderContent, name: string | undefined): Record<string, unknown> {
  switch (header.type) {
    case 'text':
      return { type: 'text', text: header.text, ...named(name) };
    case 'location': {
      // Meta's examples give coordinates as strings.
      const { latitude, longitude, name: placeName, address } = header;
      return {
        type: 'location',
        location: { latitude: String(latitude), longitude: String(longitude), ...(placeName && { name: placeName }), ...(address && { address }) },
      };
    }
    default: {
      const media = header.mediaId !== undefined ? { id: header.mediaId } : { link: header.link };
      const filename = header.type === 'document' && header.filename !== undefined ? { filename: header.filename } : {};
      return { type: header.type, [header.type]: { ...media, ...filename } };
    }
  }
}

function bodyComponent(parameters: TemplateParameters | undefined): Component | undefined {
  if (parameters === undefined) return undefined;
  if (Array.isArray(parameters)) return parameters.length === 0 ? undefined : { type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) };
  const entries = Object.entries(parameters);
  return entries.length === 0 ? undefined : { type: 'body', parameters: entries.map(([name, text]) => ({ type: 'text', parameter_name: name, text })) };
}

function buttonComponent(button: ButtonContent, names: VariableNames | undefined): Component {
  const index = String(button.index);
  switch (button.type) {
    case 'url':
      // A tracked link's token replaces its destination before the body is built (shared/clicks/tracked-buttons.ts).
      if (button.text === undefined) throw new TypeError(`Button ${index} is a tracked link whose token was not filled`);
      return { type: 'button', sub_type: 'url', index, parameters: [{ type: 'text', text: button.text, ...named(names?.buttons?.[index]) }] };
    case 'quick_reply':
      return { type: 'button', sub_type: 'quick_reply', index, parameters: [{ type: 'payload', payload: button.payload }] };
    case 'copy_code':
      return { type: 'button', sub_type: 'copy_code', index, parameters: [{ type: 'coupon_code', coupon_code: button.couponCode }] };
  }
}

const buttonComponents = (buttons: readonly ButtonContent[] | undefined, names?: VariableNames): Component[] =>
  [...(buttons ?? [])].sort((a, b) => a.index - b.index).map((button) => buttonComponent(button, names));

function cardComponent(card: CardContent, cardIndex: number): Component {
  const body = bodyComponent(card.templateParams);
  return {
    card_index: cardIndex,
    components: [{ type: 'header', parameters: [headerParameter(card.header, undefined)] }, ...(body ? [body] : []), ...buttonComponents(card.buttons)],
  };
}

/**
 * The components of one template send, in Meta's order: header, body, limited-time offer, buttons, carousel.
 *
 * @example
 * templateComponents(['Ada'], { header: { type: 'image', link: 'https://cdn.example/p.jpg' }, buttons: [{ index: 0, type: 'url', text: 'A-17' }] });
 * // [{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example/p.jpg' } }] },
 * //  { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
 * //  { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A-17' }] }]
 */
export function templateComponents(parameters: TemplateParameters | undefined, content: TemplateContent, names?: VariableNames): Component[] {
  const components: Component[] = [];
  if (content.header) components.push({ type: 'header', parameters: [headerParameter(content.header, names?.header)] });
  const body = bodyComponent(parameters);
  if (body) components.push(body);
  if (content.limitedTimeOffer) {
    const expiration = Date.parse(content.limitedTimeOffer.expiresAt);
    components.push({ type: 'limited_time_offer', parameters: [{ type: 'limited_time_offer', limited_time_offer: { expiration_time_ms: expiration } }] });
  }
  components.push(...buttonComponents(content.buttons, names));
  if (content.carousel) components.push({ type: 'carousel', cards: content.carousel.map(cardComponent) });
  return components;
}
