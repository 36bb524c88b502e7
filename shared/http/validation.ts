/**
 * Valibot validation with messages that name the field and the rule.
 *
 * Schemas state the rule ("must contain digits only"); this module prefixes the field path
 * (`data[3].toPhoneNumber`), so every 400 reads "data[3].toPhoneNumber must contain digits only".
 */
import * as v from 'valibot';
import { RequestValidationError } from './errors';

type AnySchema = v.GenericSchema;

const describePath = (issue: v.BaseIssue<unknown>, root: string): string => {
  const path = issue.path ?? [];
  let text = '';
  for (const item of path) {
    const key = (item as { key: unknown }).key;
    text += typeof key === 'number' ? `[${key}]` : text ? `.${String(key)}` : String(key);
  }
  return text || root;
};

/** Valibot's default messages ("Invalid type: Expected string but received 1") reworded as rules. */
const ruleOf = (issue: v.BaseIssue<unknown>): string => {
  if (issue.kind === 'schema' && issue.type !== 'union' && issue.type !== 'variant' && /^Invalid/.test(issue.message)) {
    return issue.received === 'undefined' ? 'is required' : `must be ${(issue.expected ?? issue.type).toLowerCase()} (received ${issue.received})`;
  }
  return issue.message;
};

export function issueMessages(issues: readonly v.BaseIssue<unknown>[], root = 'body'): string[] {
  return issueParts(issues, root).map(({ field, rule }) => `${field} ${rule}`);
}

/**
 * Each issue's field path (`root` when the issue is the value's own) and rule, apart: the dry run
 * lists them per row.
 *
 * @example
 * issueParts(v.safeParse(schema, { toPhoneNumber: 'x' }).issues!, 'data[3]'); // [{ field: 'toPhoneNumber', rule: 'must contain digits only' }]
 */
export function issueParts(issues: readonly v.BaseIssue<unknown>[], root = 'body'): { field: string; rule: string }[] {
  return issues.map((issue) => ({ field: describePath(issue, root), rule: ruleOf(issue) }));
}

/** Parses or throws a RequestValidationError whose message is the first broken rule. */
export function parseRequest<Schema extends AnySchema>(schema: Schema, input: unknown, root = 'body'): v.InferOutput<Schema> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const messages = issueMessages(result.issues, root);
  throw new RequestValidationError(messages[0]!, messages);
}
