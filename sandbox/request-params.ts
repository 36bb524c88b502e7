/**
 * Request parameters the way Graph reads them: from the query string and from a body that may
 * be JSON, `application/x-www-form-urlencoded` or `multipart/form-data` (Meta's own examples use
 * all three: migration passes `?source_waba_id=`, flows are created with `curl -F`, templates
 * with JSON). Query and form values are strings, so the typed getters also accept the string
 * spelling of numbers, booleans and JSON arrays/objects (`page_number=0`,
 * `categories=["SIGN_UP"]`), as Graph does.
 *
 * Errors use Meta's code 100 wording and PHP-style paths (`calling['status']`), like the
 * message validation does.
 */
import { jsonNestingExceeds, MAX_JSON_NESTING_DEPTH } from '../shared/http/json-depth';
import { GraphError, invalidJsonBody, invalidParameter, requiredParameter } from './graph-errors';
import { MultipartError, multipartBoundary, parseMultipart, type MultipartPart } from './multipart';

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An empty body is an empty object; anything that is not JSON is Meta's "Invalid JSON" error, and
 * so is JSON nested past the shared limit (the validators below recurse).
 */
export function readJsonBody(body: Buffer): unknown {
  if (body.length === 0) return {};
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidJsonBody();
  }
  refuseDeepNesting(text, 'Request body');
  return value;
}

/** JSON in a body or in a form value nests at most the shared limit deep. */
function refuseDeepNesting(text: string, what: string): void {
  if (jsonNestingExceeds(text)) throw invalidParameter(`${what} nests deeper than ${MAX_JSON_NESTING_DEPTH} levels`);
}

export interface ParamSource {
  url: URL;
  body: Buffer;
  contentType?: string;
}

interface StringRules {
  maxLength?: number;
  minLength?: number;
  pattern?: RegExp;
  /** Completes "Param x must ..." when the pattern does not match. */
  patternHint?: string;
}

export class ParamReader {
  protected constructor(
    protected readonly values: Json,
    private readonly pathOf: (key: string) => string,
    /** Values came from a query string or form, so comma lists count as arrays. */
    private readonly fromForm: boolean,
  ) {}

  /** Reads `value` (a JSON object) with paths below `path`, e.g. `calling['status']`. */
  static of(value: Json, path?: string): ParamReader {
    return new ParamReader(value, (key) => (path === undefined ? key : `${path}['${key}']`), false);
  }

  path(key: string): string {
    return this.pathOf(key);
  }

  has(key: string): boolean {
    const value = this.values[key];
    return value !== undefined && value !== null && value !== '';
  }

  raw(key: string): unknown {
    return this.values[key];
  }

  keys(): string[] {
    return Object.keys(this.values).filter((key) => this.has(key));
  }

  string(key: string, rules: StringRules = {}): string {
    const value = this.optionalString(key, rules);
    if (value === undefined) throw requiredParameter(this.path(key));
    return value;
  }

  optionalString(key: string, rules: StringRules = {}): string | undefined {
    if (!this.has(key)) return undefined;
    const raw = this.values[key];
    // Graph coerces scalars: an id sent as a JSON number names the same object.
    if (typeof raw !== 'string' && typeof raw !== 'number') throw invalidParameter(`Param ${this.path(key)} must be a string.`);
    const value = String(raw);
    if (rules.minLength !== undefined && value.length < rules.minLength) {
      throw invalidParameter(`Param ${this.path(key)} must be at least ${rules.minLength} characters long.`);
    }
    if (rules.maxLength !== undefined && value.length > rules.maxLength) {
      throw invalidParameter(`Param ${this.path(key)} must be at most ${rules.maxLength} characters long.`);
    }
    if (rules.pattern !== undefined && !rules.pattern.test(value)) {
      throw invalidParameter(`Param ${this.path(key)} ${rules.patternHint ?? `must match ${String(rules.pattern)}`}.`);
    }
    return value;
  }

  integer(key: string, range: { min?: number; max?: number } = {}): number {
    const value = this.optionalInteger(key, range);
    if (value === undefined) throw requiredParameter(this.path(key));
    return value;
  }

  optionalInteger(key: string, range: { min?: number; max?: number } = {}): number | undefined {
    if (!this.has(key)) return undefined;
    const raw = this.values[key];
    const value = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidParameter(`Param ${this.path(key)} must be an integer.`);
    if ((range.min !== undefined && value < range.min) || (range.max !== undefined && value > range.max)) {
      const bounds = [range.min === undefined ? undefined : `>= ${range.min}`, range.max === undefined ? undefined : `<= ${range.max}`].filter(Boolean);
      throw invalidParameter(`Param ${this.path(key)} must be ${bounds.join(' and ')}.`);
    }
    return value;
  }

  optionalBoolean(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const raw = this.values[key];
    if (raw === true || raw === 'true') return true;
    if (raw === false || raw === 'false') return false;
    throw invalidParameter(`Param ${this.path(key)} must be a boolean.`);
  }

  enumValue<T extends string>(key: string, allowed: readonly T[], options: { caseInsensitive?: boolean } = {}): T {
    const value = this.optionalEnum(key, allowed, options);
    if (value === undefined) throw requiredParameter(this.path(key));
    return value;
  }

  optionalEnum<T extends string>(key: string, allowed: readonly T[], options: { caseInsensitive?: boolean } = {}): T | undefined {
    if (!this.has(key)) return undefined;
    const raw = this.values[key];
    const value = typeof raw === 'string' && options.caseInsensitive ? raw.toUpperCase() : raw;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      throw invalidParameter(`Param ${this.path(key)} must be one of {${allowed.join(', ')}} - got ${JSON.stringify(raw)}.`);
    }
    return value as T;
  }

  array(key: string, size: { min?: number; max?: number } = {}): unknown[] {
    const value = this.optionalArray(key, size);
    if (value === undefined) throw requiredParameter(this.path(key));
    return value;
  }

  optionalArray(key: string, size: { min?: number; max?: number } = {}): unknown[] | undefined {
    if (!this.has(key)) return undefined;
    const value = this.coerceArray(this.values[key]);
    if (value === undefined) throw invalidParameter(`Param ${this.path(key)} must be an array.`);
    if ((size.min !== undefined && value.length < size.min) || (size.max !== undefined && value.length > size.max)) {
      const min = size.min ?? 0;
      throw invalidParameter(
        size.max === undefined
          ? `Param ${this.path(key)} must have at least ${min} elements.`
          : `Param ${this.path(key)} must have between ${min} and ${size.max} elements.`,
      );
    }
    return value;
  }

  /** An array of strings (numbers are accepted as ids, as Graph does). */
  optionalStringArray(key: string, size: { min?: number; max?: number } = {}): string[] | undefined {
    const values = this.optionalArray(key, size);
    if (values === undefined) return undefined;
    return values.map((value, index) => {
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value !== 'string') throw invalidParameter(`Param ${this.path(key)}[${index}] must be a string.`);
      return value;
    });
  }

  record(key: string): ParamReader {
    const value = this.optionalRecord(key);
    if (value === undefined) throw requiredParameter(this.path(key));
    return value;
  }

  optionalRecord(key: string): ParamReader | undefined {
    if (!this.has(key)) return undefined;
    let value = this.values[key];
    if (typeof value === 'string' && value.trim().startsWith('{')) {
      const text = value;
      try {
        value = JSON.parse(text);
      } catch {
        throw invalidParameter(`Param ${this.path(key)} must be a JSON object.`);
      }
      refuseDeepNesting(text, `Param ${this.path(key)}`);
    }
    if (!isRecord(value)) throw invalidParameter(`Param ${this.path(key)} must be a JSON object.`);
    return ParamReader.of(value, this.path(key));
  }

  private coerceArray(value: unknown): unknown[] | undefined {
    if (Array.isArray(value)) return value;
    if (typeof value !== 'string') return undefined;
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed)) refuseDeepNesting(text, 'A parameter');
        return Array.isArray(parsed) ? parsed : undefined;
      } catch (error) {
        if (error instanceof GraphError) throw error;
        // Graph also accepts `[a,b]` without quotes, e.g. template_ids=[123,456] of non-numeric ids.
        return text
          .slice(1, -1)
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry.length > 0);
      }
    }
    return this.fromForm
      ? text
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry.length > 0)
      : undefined;
  }
}

/** Top-level request parameters: body over query string, plus uploaded files. */
export class GraphParams extends ParamReader {
  private constructor(
    values: Json,
    fromForm: boolean,
    private readonly files: ReadonlyMap<string, MultipartPart>,
  ) {
    super(values, (key) => key, fromForm);
  }

  /**
   * Parses the body by its Content-Type; the query string's parameters (except the access token)
   * are the defaults the body overrides.
   */
  static read(source: ParamSource): GraphParams {
    const query: Json = {};
    for (const [key, value] of source.url.searchParams) {
      if (key !== 'access_token' && !(key in query)) query[key] = value;
    }
    const type = (source.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    let boundary: string | undefined;
    try {
      boundary = multipartBoundary(source.contentType);
      if (boundary !== undefined) {
        const form = parseMultipart(source.body, boundary);
        return new GraphParams({ ...query, ...Object.fromEntries(form.fields) }, true, form.files);
      }
    } catch (error) {
      if (error instanceof MultipartError) throw invalidParameter(`Invalid multipart/form-data body: ${error.message}.`);
      throw error;
    }
    if (type === 'application/x-www-form-urlencoded') {
      const form = new URLSearchParams(source.body.toString('utf8'));
      const values: Json = { ...query };
      for (const [key, value] of form) values[key] = value;
      return new GraphParams(values, true, new Map());
    }
    const body = readJsonBody(source.body);
    if (!isRecord(body)) throw invalidJsonBody();
    const fromForm = source.body.length === 0;
    return new GraphParams({ ...query, ...body }, fromForm, new Map());
  }

  file(key: string): MultipartPart | undefined {
    return this.files.get(key);
  }
}
