/**
 * The header columns (`headerLink`, `headerMediaId`, `headerFilename`, `headerText`,
 * `headerLatitude`, `headerLongitude`, `headerName`, `headerAddress`) and the options standing for
 * them, judged by the template's header (`parameters.header`): a media header takes a link or a
 * media id (a document also a file name), a text header with a variable its text, a location its
 * coordinates with an optional name and address. The request's header type is the template's,
 * lowercased.
 */
import { TemplateChoiceError } from './errors';
import type { ColumnValues, HeaderValue, MediaHeaderType } from './request-fields';
import type { HeaderParameter } from './template-parameters';
import { either, ownValues, parameterValueProblems, type Built, type RequiredValue, type ValueKind } from './value-kinds';

export const headerColumns = [
  'headerLink',
  'headerMediaId',
  'headerText',
  'headerFilename',
  'headerLatitude',
  'headerLongitude',
  'headerName',
  'headerAddress',
] as const;

const isHeaderColumn = (column: string): boolean => (headerColumns as readonly string[]).includes(column);
const mediaSource = ['headerLink', 'headerMediaId'] as const;

const mediaTypes: Readonly<Record<string, MediaHeaderType>> = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document' };

/** What the template's header is, in a problem's words: `an IMAGE`, `TEXT with a variable`. */
export function describeHeader(header: HeaderParameter): string {
  if (header.type === 'TEXT') return header.dynamic ? 'TEXT with a variable' : 'TEXT without a variable';
  return `${/^[AEIOU]/.test(header.type) ? 'an' : 'a'} ${header.type}`;
}

/** The columns a header of this type takes (none for no header or a fixed text). */
function columnsOf(header: HeaderParameter | undefined): readonly string[] {
  if (!header) return [];
  if (header.type === 'TEXT') return header.dynamic ? ['headerText'] : [];
  if (header.type === 'LOCATION') return ['headerLatitude', 'headerLongitude', 'headerName', 'headerAddress'];
  return header.type === 'DOCUMENT' ? [...mediaSource, 'headerFilename'] : mediaSource;
}

function requiredOf(header: HeaderParameter | undefined): RequiredValue[] {
  if (!header || (header.type === 'TEXT' && !header.dynamic)) return [];
  const because = `the template's header is ${describeHeader(header)}`;
  if (header.type === 'TEXT') return [{ columns: ['headerText'], because }];
  if (header.type === 'LOCATION')
    return [
      { columns: ['headerLatitude'], because },
      { columns: ['headerLongitude'], because },
    ];
  return [{ columns: mediaSource, because }];
}

/** The columns a header takes, in a refusal's words. */
function takes(header: HeaderParameter): string {
  if (header.type === 'DOCUMENT') return `${either(mediaSource)}, and headerFilename`;
  if (header.type === 'LOCATION') return 'headerLatitude, headerLongitude, headerName and headerAddress';
  return either(columnsOf(header));
}

const given = (values: ColumnValues, column: string): string | undefined => (values[column] ? values[column] : undefined);

function isHttpsUrl(text: string): boolean {
  try {
    return new URL(text).protocol === 'https:';
  } catch {
    return false;
  }
}

function buildMedia(type: MediaHeaderType, values: ColumnValues, nameOf: (column: string) => string): Built<HeaderValue> {
  const [link, mediaId, filename] = [given(values, 'headerLink'), given(values, 'headerMediaId'), given(values, 'headerFilename')];
  const problems = filename ? parameterValueProblems(nameOf('headerFilename'), filename) : [];
  if (link && mediaId) problems.push(`${nameOf('headerLink')} and ${nameOf('headerMediaId')}: give one of them, not both`);
  else if (link && !isHttpsUrl(link)) problems.push(`${nameOf('headerLink')} must be an https:// URL`);
  else if (mediaId) problems.push(...parameterValueProblems(nameOf('headerMediaId'), mediaId));
  if (problems.length > 0 || (!link && !mediaId)) return { problems };
  const source = link ? { link } : { mediaId: mediaId! };
  return { field: { type, ...source, ...(filename ? { filename } : {}) }, problems };
}

/** A coordinate within ±`bound`, or the rule it breaks. */
function coordinate(text: string, bound: number, name: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) && /^[+-]?\d/.test(text) && Math.abs(value) <= bound ? value : `${name} must be a number from -${bound} to ${bound}`;
}

function buildLocation(values: ColumnValues, nameOf: (column: string) => string): Built<HeaderValue> {
  const latitudeText = given(values, 'headerLatitude');
  const longitudeText = given(values, 'headerLongitude');
  const latitude = latitudeText === undefined ? undefined : coordinate(latitudeText, 90, nameOf('headerLatitude'));
  const longitude = longitudeText === undefined ? undefined : coordinate(longitudeText, 180, nameOf('headerLongitude'));
  const [name, address] = [given(values, 'headerName'), given(values, 'headerAddress')];
  const problems = [latitude, longitude].filter((value): value is string => typeof value === 'string');
  if (name) problems.push(...parameterValueProblems(nameOf('headerName'), name));
  if (address) problems.push(...parameterValueProblems(nameOf('headerAddress'), address));
  if (problems.length > 0 || typeof latitude !== 'number' || typeof longitude !== 'number') return { problems };
  return { field: { type: 'location', latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) }, problems };
}

function buildText(values: ColumnValues, nameOf: (column: string) => string): Built<HeaderValue> {
  const text = given(values, 'headerText');
  if (!text) return { problems: [] };
  const problems = parameterValueProblems(nameOf('headerText'), text);
  return problems.length > 0 ? { problems } : { field: { type: 'text', text }, problems };
}

/**
 * The header kind of a template. A row with any header cell gets a header of its own, completed
 * from the options (a row's link or media id replaces both of theirs): the recipient's header
 * replaces the broadcast's whole.
 *
 * @example
 * headerKind({ type: 'IMAGE' }, 'order_shipped (en_US)').build({ headerLink: 'https://cdn.example/a.jpg' }, (column) => column);
 * // { field: { type: 'image', link: 'https://cdn.example/a.jpg' }, problems: [] }
 */
export function headerKind(header: HeaderParameter | undefined, template: string): ValueKind<HeaderValue> {
  const mediaType = header ? mediaTypes[header.type] : undefined;
  if (header && !mediaType && !['TEXT', 'LOCATION'].includes(header.type)) {
    throw new TemplateChoiceError(`template ${template} has a ${header.type} header, which this CLI cannot fill`);
  }
  const accepted = columnsOf(header);
  return {
    claims: isHeaderColumn,
    columns: accepted,
    refusal: (column) => {
      if (accepted.includes(column)) return undefined;
      if (!header) return 'the template has no header';
      if (accepted.length === 0) return `the template's header is ${describeHeader(header)}: it takes no value`;
      return `the template's header is ${describeHeader(header)}: it takes ${takes(header)}`;
    },
    required: requiredOf(header),
    build: (values, nameOf) => {
      if (mediaType) return buildMedia(mediaType, values, nameOf);
      if (header?.type === 'LOCATION') return buildLocation(values, nameOf);
      if (header?.type === 'TEXT' && header.dynamic) return buildText(values, nameOf);
      return { problems: [] };
    },
    rowValues: (cells, common) => {
      const own = ownValues(cells, (column) => accepted.includes(column));
      if (Object.keys(own).length === 0) return undefined;
      const base = ownValues(common, (column) => accepted.includes(column));
      if (own.headerLink || own.headerMediaId) for (const column of mediaSource) delete base[column];
      return { ...base, ...own };
    },
  };
}
