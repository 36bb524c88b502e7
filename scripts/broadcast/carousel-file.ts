/**
 * `--carousel-file cards.json`: the request's `carousel` array as written, one card per template
 * card in order (`{ "header": { "type": "image", "link": "https://…" }, "templateParams": […],
 * "buttons": [{ "index": 0, "type": "url", "text": "…" }] }`), checked against the template's
 * `parameters.carousel` before any request: the number of cards, each card's header, body values
 * and the buttons that need a value. Carousels from CSV columns are not supported: every recipient
 * gets the same cards.
 */
import { describeButton } from './button-kind';
import type { CommonValues } from './common-values';
import { describeHeader } from './header-kind';
import { NO_BODY_PARAMETERS, type BodyParameters, type TemplateParameters } from './template-parameters';

type CarouselParameters = NonNullable<TemplateParameters['carousel']>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function headerProblems(card: Record<string, unknown>, carousel: CarouselParameters): string[] {
  if (!carousel.header) return card.header === undefined ? [] : ["header: the template's cards have no header"];
  const because = `the template's cards have ${describeHeader(carousel.header)} header`;
  const header = card.header;
  if (!isRecord(header)) return [`header is required: ${because}`];
  const type = carousel.header.type.toLowerCase();
  if (header.type !== type) return [`header.type must be ${type}: ${because}`];
  if (isText(header.link) === isText(header.mediaId)) return ['header needs one of link and mediaId'];
  if (isText(header.link) && !/^https:\/\/./.test(header.link)) return ['header.link must be an https:// URL'];
  return [];
}

function bodyProblems(card: Record<string, unknown>, body: BodyParameters): string[] {
  const values = card.templateParams;
  if (body.format === 'NAMED') {
    const missing = body.names.filter((name) => !isRecord(values) || !isText(values[name]));
    return missing.length === 0
      ? []
      : [`templateParams needs ${missing.map((name) => `"${name}"`).join(', ')}: the template's card body has named parameters ${body.names.join(', ')}`];
  }
  if (body.count === 0) return values === undefined ? [] : ["templateParams: the template's card body has no parameters"];
  const fits = Array.isArray(values) && values.length === body.count && values.every(isText);
  const placeholders = body.count === 1 ? '{{1}}' : `{{1}} … {{${body.count}}}`;
  return fits
    ? []
    : [`templateParams must be a list of ${body.count} non-empty text${body.count === 1 ? '' : 's'}: the template's card body has ${placeholders}`];
}

function buttonProblems(card: Record<string, unknown>, carousel: CarouselParameters): string[] {
  const given = Array.isArray(card.buttons) ? card.buttons.filter(isRecord) : [];
  return (carousel.buttons ?? [])
    .filter((button) => button.dynamic && !given.some((entry) => entry.index === button.index))
    .map((button) => `buttons needs the entry of index ${button.index}: the template's card button ${button.index} is ${describeButton(button)}`);
}

/**
 * Every problem of the carousel option for this template, each naming `--carousel-file`.
 *
 * @example
 * carouselProblems(undefined, { path: 'cards.json', cards: [] }, 'order_shipped (en_US)');
 * // ['--carousel-file: template order_shipped (en_US) has no carousel']
 */
export function carouselProblems(carousel: CarouselParameters | undefined, given: CommonValues['carousel'], template: string): string[] {
  if (!carousel) return given ? [`--carousel-file: template ${template} has no carousel`] : [];
  if (!given)
    return [`--carousel-file is required: template ${template} is a carousel of ${carousel.cards} cards (a JSON file holding the request's carousel array)`];
  const option = `--carousel-file ${given.path}`;
  if (given.cards.length !== carousel.cards) return [`${option}: template ${template} has ${carousel.cards} cards; the file holds ${given.cards.length}`];
  return given.cards.flatMap((card, position) => {
    const problems = isRecord(card)
      ? [...headerProblems(card, carousel), ...bodyProblems(card, carousel.body ?? NO_BODY_PARAMETERS), ...buttonProblems(card, carousel)]
      : ['must be an object ({ "header": …, "templateParams": …, "buttons": … })'];
    return problems.map((problem) => `${option}: card ${position + 1}: ${problem}`);
  });
}
