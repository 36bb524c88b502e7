/** The analytics routes' query values as Meta reads them: timestamps, lists and enumerations, with Graph's errors. */
import { invalidParameter, requiredParameter } from '../graph-errors';

/** Unix seconds; milliseconds (as in one of Meta's own examples) are accepted and converted. */
export function timestamp(raw: string | null | undefined, name: string): number {
  if (raw === undefined || raw === null || raw.trim() === '') throw requiredParameter(name);
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value < 0) throw invalidParameter(`Param ${name} must be a UNIX timestamp.`);
  return value > 100_000_000_000 ? Math.floor(value / 1000) : value;
}

/** `[a,b]`, `["a","b"]` or `a,b` → strings. */
export function list(raw: string | null | undefined): string[] | undefined {
  if (raw === undefined || raw === null || raw.trim() === '') return undefined;
  const text = raw.trim();
  const inner = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return inner
    .split(',')
    .map((entry) =>
      entry
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .replace(/^'(.*)'$/, '$1'),
    )
    .filter((entry) => entry.length > 0);
}

export function enumList<T extends string>(raw: string | null | undefined, allowed: readonly T[], name: string): T[] | undefined {
  const values = list(raw)?.map((value) => value.toUpperCase());
  for (const value of values ?? []) {
    if (!(allowed as readonly string[]).includes(value))
      throw invalidParameter(`Param ${name} must be a list of {${allowed.join(', ')}} - got ${JSON.stringify(value)}.`);
  }
  return values as T[] | undefined;
}

export function oneOf<T extends string>(raw: string | null | undefined, allowed: readonly T[], name: string): T {
  if (raw === undefined || raw === null || raw.trim() === '') throw requiredParameter(name);
  const value = raw.trim().toUpperCase();
  if (!(allowed as readonly string[]).includes(value))
    throw invalidParameter(`Param ${name} must be one of {${allowed.join(', ')}} - got ${JSON.stringify(raw)}.`);
  return value as T;
}
