/**
 * The parts of a template a CSV fills beyond the recipient and positional parameters (header,
 * buttons, named body parameters), each as a `ValueKind`: which columns are its, which of them
 * this template takes, which values it cannot do without, and how a field is built from values by
 * column. template-fit.ts runs every kind the same way over the options (the broadcast-level
 * fields) and over each row (the recipient's own fields).
 */
import * as v from 'valibot';
import { positionalParametersSchema } from '../../shared/templates/template-content.schema';
import type { ColumnValues } from './request-fields';

export interface RequiredValue {
  /** Any one of these columns gives the value (`headerLink` or `headerMediaId`). */
  columns: readonly string[];
  /** Why the template needs it: `the template's button 0 is a URL button with a variable`. */
  because: string;
}

export interface Built<Field> {
  field?: Field;
  problems: string[];
}

export interface ValueKind<Field> {
  /** Whether the column (or the option standing for it) belongs to this kind. */
  claims(column: string): boolean;
  /** The kind's columns this template takes. */
  columns: readonly string[];
  /** Why this template takes no value in the kind's column; undefined when it takes one. */
  refusal(column: string): string | undefined;
  /** The values every recipient needs, from its cell or an option. */
  required: readonly RequiredValue[];
  /**
   * The field from values by column; `nameOf` names a column in a problem (the column itself, or
   * the option standing for it). No field, and no problem, when the values leave it incomplete:
   * what is missing is the required values' concern.
   */
  build(values: ColumnValues, nameOf: (column: string) => string): Built<Field>;
  /** What a row's own field is built from; undefined when the row gives none (the broadcast-level field applies). */
  rowValues(cells: ColumnValues, common: ColumnValues): ColumnValues | undefined;
}

/** A value given by a cell or, failing that, by the option standing for its column. */
export const valueOf = (column: string, cells: ColumnValues, common: ColumnValues): string | undefined => {
  const cell = cells[column];
  if (cell !== undefined && cell !== '') return cell;
  const option = common[column];
  return option === undefined || option === '' ? undefined : option;
};

/** The row's non-empty cells of the columns `owned` picks. */
export function ownValues(cells: ColumnValues, owned: (column: string) => boolean): Record<string, string> {
  const own: Record<string, string> = {};
  for (const [column, value] of Object.entries(cells)) if (value !== '' && owned(column)) own[column] = value;
  return own;
}

/** One template parameter value, by the API's rule for a parameter (at most 1024 characters, sendable text). */
const parameterValue = positionalParametersSchema.item;

/**
 * The API's parameter rule broken by a value, named: `button0 values must be at most 1024 characters`.
 *
 * @example
 * parameterValueProblems('headerText', 'Spring'); // []
 */
export function parameterValueProblems(name: string, value: string): string[] {
  const result = v.safeParse(parameterValue, value, { abortPipeEarly: true });
  return result.success ? [] : result.issues.map((issue) => `${name} ${issue.message}`);
}

/** `headerLink or headerMediaId`, `first_name`. */
export const either = (names: readonly string[]): string => names.join(' or ');
