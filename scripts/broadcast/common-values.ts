/**
 * The send options that give a value to every row: `--header-link`, `--header-media-id`,
 * `--header-text`, `--header-filename`, `--header-latitude`, `--header-longitude`,
 * `--header-name`, `--header-address`, `--button0` … `--button9` and `--param-<name>` each stand for
 * the column of that name (`headerLink`, `button0`, `first_name`) and become the request's
 * broadcast-level fields, a row's own cell winning; `--limited-time-offer <ISO>` and
 * `--carousel-file <cards.json>` have no column. Their form is checked here, before any request;
 * whether the template takes them is template-fit.ts's concern.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as v from 'valibot';
import { scheduledAtSchema } from '../../shared/broadcast/template-broadcast.schema';
import { CliUsageError } from './errors';
import { buttonColumns } from './button-kind';
import { headerColumns } from './header-kind';

export interface CommonValues {
  /** Option values by the column each stands for. */
  columns: Record<string, string>;
  /** `--limited-time-offer`: the offer's expiry, ISO 8601 with an offset. */
  limitedTimeOffer?: string;
  /** `--carousel-file`: the file (as given) and the cards it holds. */
  carousel?: { path: string; cards: unknown[] };
}

export const noCommonValues: CommonValues = { columns: {} };

/** `headerMediaId` → `header-media-id`. */
const kebab = (column: string): string => column.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The option standing for a column: `--header-link`, `--button0`, `--param-first_name`. */
export function optionNameOf(column: string): string {
  if ((headerColumns as readonly string[]).includes(column) || buttonColumns.includes(column)) return `--${kebab(column)}`;
  return `--param-${column}`;
}

/** The fixed-name options for parseArgs (scripts/broadcast-cli.ts); `--param-<name>` is read by extractParamOptions. */
export const commonValueOptions = Object.fromEntries(
  [...headerColumns, ...buttonColumns]
    .map((column) => [kebab(column), { type: 'string' as const }])
    .concat([
      ['limited-time-offer', { type: 'string' as const }],
      ['carousel-file', { type: 'string' as const }],
    ]),
) as Record<string, { type: 'string' }>;

/** Meta's rule for a parameter name: lowercase letters, digits and underscores, from a letter. */
const parameterName = /^[a-z][a-z0-9_]*$/;

/**
 * Takes every `--param-<name> <value>` (or `--param-<name>=<value>`) out of argv, which parseArgs
 * could not accept (it knows fixed option names only).
 *
 * @example
 * extractParamOptions(['send', '--param-first_name', 'Ada', '--csv', 'a.csv']);
 * // { argv: ['send', '--csv', 'a.csv'], params: { first_name: 'Ada' } }
 */
export function extractParamOptions(argv: readonly string[]): { argv: string[]; params: Record<string, string> } {
  const rest: string[] = [];
  const params: Record<string, string> = {};
  for (let position = 0; position < argv.length; position += 1) {
    const match = /^--param-([^=]*)(?:=([\s\S]*))?$/.exec(argv[position]!);
    if (!match) {
      rest.push(argv[position]!);
      continue;
    }
    const name = match[1]!;
    let value = match[2];
    if (value === undefined) {
      value = argv[position + 1];
      if (value === undefined || value.startsWith('--')) throw new CliUsageError(`--param-${name} needs a value (--param-${name} <value>)`);
      position += 1;
    }
    if (!parameterName.test(name))
      throw new CliUsageError(`--param-${name}: a named parameter is lowercase letters, digits and underscores, starting with a letter (--param-first_name)`);
    if (name in params) throw new CliUsageError(`--param-${name} is given twice`);
    params[name] = value;
  }
  return { argv: rest, params };
}

function readCarousel(path: string, cwd: string): CommonValues['carousel'] {
  const fullPath = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(fullPath, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read --carousel-file ${fullPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let cards: unknown;
  try {
    cards = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(`--carousel-file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(cards))
    throw new CliUsageError(`--carousel-file ${path} must hold a JSON array of cards ([{ "header": …, "templateParams": […], "buttons": […] }, …])`);
  return { path, cards };
}

/**
 * The common values of parsed options. Throws CliUsageError for an empty value, an expiry that is
 * not an ISO 8601 time with an offset in the future, or a carousel file that is not a JSON array.
 *
 * @example
 * commonValuesOf({ 'header-link': 'https://cdn.example/a.jpg', button0: 'A-17' }, { first_name: 'Ada' }, '/tmp');
 * // { columns: { headerLink: 'https://cdn.example/a.jpg', button0: 'A-17', first_name: 'Ada' } }
 */
export function commonValuesOf(
  options: Readonly<Record<string, unknown>>,
  params: Readonly<Record<string, string>>,
  cwd: string,
  now = new Date(),
): CommonValues {
  const columns: Record<string, string> = {};
  for (const column of [...headerColumns, ...buttonColumns]) {
    const value = options[kebab(column)];
    if (typeof value === 'string') columns[column] = value.trim();
  }
  Object.assign(columns, Object.fromEntries(Object.entries(params).map(([name, value]) => [name, value.trim()])));
  const empty = Object.keys(columns).filter((column) => columns[column] === '');
  if (empty.length > 0) throw new CliUsageError(empty.map((column) => `${optionNameOf(column)} must not be empty`).join('\n'));
  const common: CommonValues = { columns };
  const expiresAt = options['limited-time-offer'];
  if (typeof expiresAt === 'string') {
    const result = v.safeParse(scheduledAtSchema, expiresAt);
    if (!result.success) throw new CliUsageError(`--limited-time-offer: limitedTimeOffer.expiresAt ${result.issues[0].message}`);
    if (Date.parse(expiresAt) <= now.getTime())
      throw new CliUsageError(`--limited-time-offer: limitedTimeOffer.expiresAt must be in the future (${expiresAt} has passed)`);
    common.limitedTimeOffer = expiresAt;
  }
  const carouselFile = options['carousel-file'];
  if (typeof carouselFile === 'string') common.carousel = readCarousel(carouselFile, cwd);
  return common;
}
