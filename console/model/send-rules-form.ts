/**
 * The builder's "Respecting the people on the list" step (docs/CONSOLE.md "New campaign"): the send
 * window, deferral over the frequency cap, the canary and the halt thresholds, from the fields' text
 * to the create body's `sendWindow`, `deferCapped`, `canary` and `haltIf`. Checked with the API's own
 * schemas (shared/send-rules/send-rules.schema.ts, bundled) and worded by its own validation
 * (shared/http/validation.ts), so the builder says exactly what the API's 400 would say, before the draft.
 */
import * as v from 'valibot';
import { issueMessages } from '../../shared/http/validation';
import { campaignSendRulesEntries, WEEKDAYS, type HaltIf, type SendRules, type Weekday } from '../../shared/send-rules/send-rules.schema';

/** The fields as the page reads them: text as typed, boxes as checked. */
export interface SendRulesInput {
  windowFrom: string;
  windowTo: string;
  /** The days checked; all seven (or none left out) is every day. */
  days: readonly Weekday[];
  /** `recipient`: each person's own zone; otherwise the named zone. */
  zone: 'recipient' | 'named';
  zoneName: string;
  deferCapped: boolean;
  canary: boolean;
  canarySize: 'percent' | 'count';
  /** Empty: the API's default slice (5 %). */
  canaryAmount: string;
  observeMinutes: string;
  /** Watch the thresholds while the whole campaign runs (`haltIf`). */
  watchWhileRunning: boolean;
  /** Thresholds in percent of those sent; empty: none. */
  optOutPercent: string;
  failurePercent: string;
  blockPercent: string;
  qualityDrop: boolean;
}

/** The labels the fields carry, by the body's field path: a problem names the field the person typed in. */
const LABELS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^sendWindow\.from/, 'Send from'],
  [/^sendWindow\.to/, 'Send until'],
  [/^sendWindow\.days/, 'Days'],
  [/^sendWindow\.timeZone/, 'Time zone'],
  [/^sendWindow$/, 'Send window'],
  [/\.?haltIf\.optOutRate/, 'Opt-out rate above (%)'],
  [/\.?haltIf\.failureRate/, 'Failure rate above (%)'],
  [/\.?haltIf\.blockRate/, 'Block rate above (%)'],
  [/haltIf$/, 'Halt thresholds'],
  [/^canary\.percent/, 'Canary size (percent)'],
  [/^canary\.count/, 'Canary size (people)'],
  [/^canary\.observeMinutes/, 'Watch the canary for (minutes)'],
];

const sendRulesBody = v.object(campaignSendRulesEntries);

/** A typed number (NaN when not one, which the schema refuses), or undefined when empty. */
const numberOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** A percent as the API's share (1 % → 0.01), without float noise (0.07 / 100 is not 0.0007 in floats). */
const shareOf = (text: string): number | undefined => {
  const percent = numberOf(text);
  return percent === undefined ? undefined : Number((percent / 100).toPrecision(12));
};

/**
 * The thresholds given, as `haltIf` (empty when none).
 *
 * @example
 * thresholdsOf({ optOutPercent: '1', failurePercent: '', blockPercent: '0.5', qualityDrop: true }); // { optOutRate: 0.01, blockRate: 0.005, qualityDrop: true }
 */
export function thresholdsOf(input: Pick<SendRulesInput, 'optOutPercent' | 'failurePercent' | 'blockPercent' | 'qualityDrop'>): Partial<HaltIf> {
  const haltIf: Partial<HaltIf> = {};
  const optOutRate = shareOf(input.optOutPercent);
  const failureRate = shareOf(input.failurePercent);
  const blockRate = shareOf(input.blockPercent);
  if (optOutRate !== undefined) haltIf.optOutRate = optOutRate;
  if (failureRate !== undefined) haltIf.failureRate = failureRate;
  if (blockRate !== undefined) haltIf.blockRate = blockRate;
  if (input.qualityDrop) haltIf.qualityDrop = true;
  return haltIf;
}

function sendWindowOf(input: SendRulesInput): Record<string, unknown> | undefined {
  if (input.windowFrom.trim() === '' && input.windowTo.trim() === '') return undefined;
  return {
    from: input.windowFrom.trim(),
    to: input.windowTo.trim(),
    ...(input.days.length === WEEKDAYS.length ? {} : { days: WEEKDAYS.filter((day) => input.days.includes(day)) }),
    ...(input.zone === 'named' ? { timeZone: input.zoneName.trim() } : {}),
  };
}

function canaryOf(input: SendRulesInput, haltIf: Partial<HaltIf>): Record<string, unknown> {
  const amount = numberOf(input.canaryAmount);
  return { ...(amount === undefined ? {} : { [input.canarySize]: amount }), observeMinutes: numberOf(input.observeMinutes), haltIf };
}

/** The body's fields before the check (what the API would be sent). */
function rulesBodyOf(input: SendRulesInput): Record<string, unknown> {
  const haltIf = thresholdsOf(input);
  const window = sendWindowOf(input);
  return {
    ...(window ? { sendWindow: window } : {}),
    ...(input.deferCapped ? { deferCapped: true } : {}),
    ...(input.canary ? { canary: canaryOf(input, haltIf) } : {}),
    ...(input.watchWhileRunning && Object.keys(haltIf).length > 0 ? { haltIf } : {}),
  };
}

/** The first issue's message as the API words it, behind the label of the field it names. */
function problemOf(issues: readonly v.BaseIssue<unknown>[]): string {
  const message = issueMessages(issues)[0]!;
  const label = LABELS.find(([path]) => path.test(message.split(' ')[0]!))?.[1];
  return label ? `${label}: ${message}` : message;
}

/**
 * The create body's send rules from the fields, or the problem in words (the API's own message).
 * Thresholds apply to the canary's slice when a canary is chosen, and while the whole campaign runs
 * when that box is checked (no thresholds: no `haltIf`); thresholds with neither are a problem (they
 * would watch nothing). A canary without thresholds gets the API's own refusal.
 *
 * @example
 * sendRulesFormOf({ ...empty, windowFrom: '09:00', windowTo: '20:00', days: WEEKDAYS, zone: 'recipient' }).values; // { sendWindow: { from: '09:00', to: '20:00' } }
 * sendRulesFormOf({ ...empty, windowFrom: '9', windowTo: '20:00', days: WEEKDAYS }).problem; // 'Send from: sendWindow.from must be a time "HH:MM" (00:00 to 23:59)'
 */
export function sendRulesFormOf(input: SendRulesInput): { values: Partial<SendRules>; problem?: string } {
  const body = rulesBodyOf(input);
  if (!input.canary && !input.watchWhileRunning && Object.keys(thresholdsOf(input)).length > 0) {
    return { values: {}, problem: 'Halt thresholds: choose where they apply: a canary first, while the whole campaign runs, or both.' };
  }
  const checked = v.safeParse(sendRulesBody, body, { abortPipeEarly: true });
  if (!checked.success) return { values: {}, problem: problemOf(checked.issues) };
  return { values: body as Partial<SendRules> };
}
