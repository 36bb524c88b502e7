/**
 * Field readers for send bodies (`/messages`, `/marketing_messages`), shared by the message and
 * template-send checks. Every failure is code 100 naming the parameter Meta's PHP-style way
 * (`template['components'][0]['index']`).
 */
import { invalidParameter, requiredParameter } from './graph-errors';

export type Json = Record<string, unknown>;

export const MEDIA_TYPES: ReadonlySet<string> = new Set(['image', 'document', 'audio', 'video', 'sticker']);

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/**
 * Graph's enum error: `Param type must be one of {TEXT, IMAGE} - got "fax".`
 *
 * @example
 * oneOf('type', ['text', 'image'], 'fax'); // throws (#100) Param type must be one of {TEXT, IMAGE} - got "fax".
 */
export function oneOf(param: string, allowed: readonly string[], got: unknown): never {
  const list = allowed.map((value) => value.toUpperCase()).join(', ');
  throw invalidParameter(`Param ${param} must be one of {${list}} - got ${JSON.stringify(got)}.`);
}

export function requireRecord(parent: Json, key: string, path: string): Json {
  const value = parent[key];
  if (value === undefined || value === null) throw requiredParameter(path);
  if (!isRecord(value)) throw invalidParameter(`Param ${path} must be a JSON object.`);
  return value;
}

export function requireString(parent: Json, key: string, path: string): string {
  const value = parent[key];
  if (value === undefined || value === null || value === '') throw requiredParameter(path);
  if (typeof value !== 'string') throw invalidParameter(`Param ${path} must be a string.`);
  return value;
}

export function requireArray(parent: Json, key: string, path: string, min: number, max: number): unknown[] {
  const value = parent[key];
  if (value === undefined || value === null) throw requiredParameter(path);
  if (!Array.isArray(value)) throw invalidParameter(`Param ${path} must be an array.`);
  if (value.length < min || value.length > max) {
    throw invalidParameter(`Param ${path} must have between ${min} and ${max} elements.`);
  }
  return value;
}

/** Media objects name an uploaded media id or a link; captions are optional strings. */
export function validateMedia(media: Json, path: string): void {
  if (!isNonEmptyString(media.id) && !isNonEmptyString(media.link)) {
    throw invalidParameter(`Param ${path} must contain either 'id' or 'link'.`);
  }
  if (media.caption !== undefined && typeof media.caption !== 'string') {
    throw invalidParameter(`Param ${path}['caption'] must be a string.`);
  }
}

/** The YAML types coordinates as strings while Meta's examples send numbers; both are accepted. */
function coordinate(location: Json, key: 'latitude' | 'longitude', limit: number, path: string): void {
  const raw = location[key];
  if (raw === undefined || raw === null || raw === '') throw requiredParameter(`${path}['${key}']`);
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value) || Math.abs(value) > limit) {
    throw invalidParameter(`Param ${path}['${key}'] must be a number between -${limit} and ${limit}.`);
  }
}

/** A location message or a LOCATION header parameter: latitude and longitude, strings or numbers. */
export function validateLocation(location: Json, path = 'location'): void {
  coordinate(location, 'latitude', 90, path);
  coordinate(location, 'longitude', 180, path);
}
