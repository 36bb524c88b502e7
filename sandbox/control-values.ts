/**
 * Parsing of the control API's JSON values (`/_sandbox/control`, `/_sandbox/webhooks`): each
 * failure is a 400 naming the field and the rule. Shared by every settings module of the sandbox.
 */
import { SandboxRequestError } from './sandbox-request-error';

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function fail(message: string): never {
  throw new SandboxRequestError(400, message);
}

export function nonNegative(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) fail(`${name} must be a number >= 0`);
  return value;
}

export function rate(value: unknown, name: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) fail(`${name} must be a number between 0 and 1`);
  return value;
}

export function wholeNumber(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(`${name} must be an integer >= 0`);
  return value;
}

export function optionalTimes(value: unknown, name: string): number | undefined {
  return value === undefined ? undefined : wholeNumber(value, name);
}

/** Recipients are matched on digits, so "+1555..." and "1555..." name the same rule. */
export function recipientKey(recipient: string): string {
  return recipient.startsWith('+') ? recipient.slice(1) : recipient;
}

/** Consumes one use of a rule; rules without `times` never run out. */
export function takeRule<T extends { times?: number }>(rules: Map<string, T>, key: string): T | undefined {
  const rule = rules.get(key);
  if (rule === undefined) return undefined;
  if (rule.times !== undefined) {
    if (rule.times <= 1) rules.delete(key);
    else rule.times -= 1;
    if (rule.times === 0) return undefined;
  }
  return rule;
}
