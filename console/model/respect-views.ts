/**
 * Issue 39 on a job's and a campaign's page, in words (docs/CONSOLE.md "Respecting the people on the
 * list"): who waits for their send window or the frequency cap and until when, the canary's state, a
 * halt's measured rates beside their thresholds, a job's pause and resume, a dry run's send-window
 * plan, and the organization's contact policy.
 */
import * as v from 'valibot';
import { issueMessages } from '../../shared/http/validation';
import { contactPolicyRequestSchema } from '../../shared/send-rules/contact-policy.schema';
import type { HaltIf, SendRules } from '../../shared/send-rules/send-rules.schema';
import type { JobStatus } from './api-types';
import { formatCount, formatTime } from './format';
import { isFinished } from './job-state';
import type { CanaryView, ContactPolicyView, HaltMeasure, HaltView, PauseShown, SendWindowPlan, WaitingCounts } from './respect-types';

/**
 * A share as a percent, one decimal (two below 1 %, so 0.5 % is not "0.5" vs "1" rounding away).
 *
 * @example
 * percentOf(0.03); // '3.0 %'
 * percentOf(0.005); // '0.50 %'
 */
export const percentOf = (share: number): string => `${(share * 100).toFixed(share > 0 && share < 0.01 ? 2 : 1)} %`;

/**
 * The facts of held recipients: waiting for their window (with the next opening) and deferred by
 * the cap (with when it next allows); none when nobody waits.
 *
 * @example
 * waitingFactsOf({ waitingForWindow: 300, nextWindowAt: '2026-12-02T03:30:00.000Z' }); // [['Waiting for their send window', '300, next opening …']]
 */
export function waitingFactsOf(counts: WaitingCounts): Array<[string, string]> {
  const facts: Array<[string, string]> = [];
  if (counts.waitingForWindow) {
    facts.push([
      'Waiting for their send window',
      `${formatCount(counts.waitingForWindow)}${counts.nextWindowAt ? `, next opening ${formatTime(counts.nextWindowAt)}` : ''}`,
    ]);
  }
  if (counts.deferredByCap) {
    facts.push([
      'Deferred by the frequency cap',
      `${formatCount(counts.deferredByCap)}${counts.nextCapAt ? `, the cap next allows one at ${formatTime(counts.nextCapAt)}` : ''}`,
    ]);
  }
  return facts;
}

const RATES = [
  ['optOutRate', 'Opt-out rate', 'opted out (STOP replies, marketing stops, 131050)', 'optOuts'],
  ['failureRate', 'Failure rate', 'failed by a Meta code', 'failures'],
  ['blockRate', 'Block rate', "hit Meta's block signals", 'blocks'],
] as const;

/** Whether a measure went over its threshold: the API's `exceeded` when it says, else compared here. */
const wentOver = (halt: HaltView, measure: HaltMeasure, compared: boolean): boolean => (halt.exceeded ? halt.exceeded.includes(measure) : compared);

export interface HaltRow {
  measure: string;
  measured: string;
  threshold: string;
  /** Whether this measure crossed its threshold (the reason of the halt). */
  over: boolean;
  words: string;
  /** Said when it halted: "opt-out rate 3.0 % above 1.0 %". */
  short: string;
}

/**
 * A halt's measures, each beside its threshold, in words: only the thresholds the campaign set.
 *
 * @example
 * haltRowsOf({ measured: { optOutRate: 0.03 }, thresholds: { optOutRate: 0.01 }, sent: 400, counts: { optOuts: 12, failures: 0, blocks: 0 } })[0].words;
 * // 'Opt-out rate 3.0 %: 12 of 400 sent opted out (…), above the threshold of 1.0 %'
 */
export function haltRowsOf(halt: HaltView): HaltRow[] {
  const rows: HaltRow[] = [];
  for (const [key, measure, what, counted] of RATES) {
    const threshold = halt.thresholds[key];
    if (threshold === undefined) continue;
    const value = halt.measured[key];
    const over = wentOver(halt, key, value !== undefined && value > threshold);
    const measured = value === undefined ? 'not measured' : percentOf(value);
    const people = halt.counts ? `: ${formatCount(halt.counts[counted])} of ${formatCount(halt.sent)}` : ` of ${formatCount(halt.sent)}`;
    const words = `${measure} ${measured}${people} sent ${what}, ${over ? 'above' : 'within'} the threshold of ${percentOf(threshold)}`;
    rows.push({ measure, measured, threshold: percentOf(threshold), over, words, short: `${measure.toLowerCase()} ${measured} above ${percentOf(threshold)}` });
  }
  if (halt.thresholds.qualityDrop) {
    const dropped = wentOver(halt, 'qualityDrop', halt.measured.qualityDrop === true);
    const measured = dropped ? "dropped: Meta lowered the template's quality rating" : 'no drop';
    const words = `Template quality: ${measured}${dropped ? ', which halts the campaign' : ''}`;
    rows.push({ measure: 'Template quality', measured, threshold: 'any drop halts', over: dropped, words, short: "the template's quality rating dropped" });
  }
  return rows;
}

/**
 * The pause in one sentence: who paused and why (a halt names the measures over their thresholds).
 *
 * @example
 * pauseWords({ pausedBy: 'user', reason: 'PAUSED_BY_USER' }); // 'Paused by a person (PAUSED_BY_USER)'
 */
export function pauseWords(pause: PauseShown): string {
  if (pause.pausedBy === 'canary') {
    const over = pause.halt
      ? haltRowsOf(pause.halt)
          .filter((row) => row.over)
          .map((row) => row.short)
      : [];
    return `Halted by its thresholds${pause.halt ? ` after ${formatCount(pause.halt.sent)} sent` : ''}${over.length ? `: ${over.join('; ')}` : ''}. Resume to send the rest, or cancel.`;
  }
  const by = pause.pausedBy === 'user' ? 'a person' : pause.pausedBy === 'meta' ? 'Meta' : pause.pausedBy;
  return `Paused${by ? ` by ${by}` : ''}${pause.reason ? ` (${pause.reason})` : ''}`;
}

const CANARY_STATES: Readonly<Record<string, string>> = {
  sending: 'sending the first slice',
  observing: 'watching the first slice',
  passed: 'passed: the rest is being sent',
  halted: 'halted: the campaign was paused',
};

/** A verdict's figures in words: within every threshold, or the measures over theirs. */
function verdictWords(verdict: HaltView): string {
  const over = haltRowsOf(verdict).filter((row) => row.over);
  if (over.length === 0) return `within every threshold over ${formatCount(verdict.sent)} sent`;
  return `over its thresholds: ${over.map((row) => row.short).join('; ')}`;
}

/**
 * The canary in words: its state (`sending`, `observing`, `passed`, `halted`; another state the
 * API adds reads as its own word), the slice's size, until when it is watched, the verdict.
 *
 * @example
 * canaryWords({ state: 'observing', slice: 185, observeUntil: '2026-12-02T10:00:00.000Z' }); // 'watching the first slice, a slice of 185 until …'
 */
export function canaryWords(canary: CanaryView): string {
  const state = CANARY_STATES[canary.state] ?? canary.state;
  const until = canary.observeUntil && canary.state === 'observing' ? ` until ${formatTime(canary.observeUntil)}` : '';
  const verdict = canary.verdict ? `; verdict: ${verdictWords(canary.verdict)}` : '';
  return `${state}, a slice of ${formatCount(canary.slice)}${until}${verdict}`;
}

/**
 * A dry run's send-window plan, one line per step.
 *
 * @example
 * sendWindowPlanLines({ now: 1200, later: [{ at: '2026-12-02T03:30:00.000Z', count: 300 }] }); // ['Now, inside their window: 1,200', 'At …: 300']
 */
export function sendWindowPlanLines(plan: SendWindowPlan): string[] {
  return [`Now, inside their window: ${formatCount(plan.now)}`, ...plan.later.map((step) => `At ${formatTime(step.at)}: ${formatCount(step.count)}`)];
}

const DAY_NAMES: Readonly<Record<string, string>> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

/** Thresholds in words: "opt-out rate above 1.0 %, a drop of the template's quality". */
const thresholdWords = (haltIf: HaltIf): string =>
  [
    ...(haltIf.optOutRate !== undefined ? [`opt-out rate above ${percentOf(haltIf.optOutRate)}`] : []),
    ...(haltIf.failureRate !== undefined ? [`failure rate above ${percentOf(haltIf.failureRate)}`] : []),
    ...(haltIf.blockRate !== undefined ? [`block rate above ${percentOf(haltIf.blockRate)}`] : []),
    ...(haltIf.qualityDrop ? ["a drop of the template's quality"] : []),
  ].join(', ');

/**
 * A campaign's rules as given (the view's `sendRules`), as facts of its page.
 *
 * @example
 * sendRulesFactsOf({ sendWindow: { from: '09:00', to: '20:00', days: ['mon', 'tue'] }, deferCapped: true });
 * // [['Send window', "09:00–20:00 on Mon, Tue, each recipient's own time"], ['Over the frequency cap', 'deferred until the cap allows']]
 */
export function sendRulesFactsOf(rules: Partial<SendRules> | undefined): Array<[string, string]> {
  if (!rules) return [];
  const facts: Array<[string, string]> = [];
  const window = rules.sendWindow;
  if (window) {
    const days = window.days ? ` on ${window.days.map((day) => DAY_NAMES[day] ?? day).join(', ')}` : ', every day';
    const zone = !window.timeZone || window.timeZone === 'recipient' ? "each recipient's own time" : `${window.timeZone} time`;
    facts.push(['Send window', `${window.from}–${window.to}${days}, ${zone}`]);
  }
  if (rules.deferCapped) facts.push(['Over the frequency cap', 'deferred until the cap allows']);
  if (rules.canary) {
    const { percent, count, observeMinutes, haltIf } = rules.canary;
    const sizes = [percent !== undefined ? `${percent} %` : undefined, count !== undefined ? `${formatCount(count)} people` : undefined].filter(Boolean);
    const size = sizes.length === 2 ? `${sizes.join(' or ')} (the smaller)` : (sizes[0] ?? '5 %');
    facts.push(['Canary rule', `first ${size}, watched ${formatCount(observeMinutes)} minutes; halts on ${thresholdWords(haltIf)}`]);
  }
  if (rules.haltIf) facts.push(['Halts while running on', thresholdWords(rules.haltIf)]);
  return facts;
}

/**
 * Which of pause and resume a job allows: pause until it finishes (a template pause may be replaced
 * by a person's, which then needs a resume), resume when it is held until resumed (a person's or the
 * canary's pause, or Meta's hold of the account: `failsAt` null).
 *
 * @example
 * jobControlsOf('PROCESSING', undefined); // { pause: true, resume: false }
 * jobControlsOf('PAUSED', { pausedBy: 'user', failsAt: null }); // { pause: false, resume: true }
 */
export function jobControlsOf(status: JobStatus, pause: PauseShown | undefined): { pause: boolean; resume: boolean } {
  if (isFinished(status)) return { pause: false, resume: false };
  if (status !== 'PAUSED') return { pause: true, resume: false };
  const heldUntilResumed = !pause || pause.failsAt === null || pause.failsAt === undefined;
  return { pause: !heldUntilResumed, resume: heldUntilResumed };
}

const CATEGORY_WORDS: Readonly<Record<string, string>> = { MARKETING: 'marketing', UTILITY: 'utility', AUTHENTICATION: 'authentication' };

/**
 * The organization's contact policy in words; undefined: off.
 *
 * @example
 * contactPolicyWords({ marketingPerPerson: 2, perDays: 7 }); // 'At most 2 marketing messages to one person in any 7 days, across every campaign and broadcast.'
 */
export function contactPolicyWords(policy: ContactPolicyView | undefined): string {
  if (!policy) return 'Off: no frequency cap. Every campaign and broadcast reaches each person as often as it is sent.';
  const categories = (policy.categories?.length ? policy.categories : ['MARKETING']).map((category) => CATEGORY_WORDS[category] ?? category);
  const kinds = categories.length === 1 ? categories[0] : `${categories.slice(0, -1).join(', ')} and ${categories.at(-1)}`;
  const messages = policy.marketingPerPerson === 1 ? 'message' : 'messages';
  return `At most ${formatCount(policy.marketingPerPerson)} ${kinds} ${messages} to one person in any ${formatCount(policy.perDays)} day${policy.perDays === 1 ? '' : 's'}, across every campaign and broadcast.`;
}

/**
 * The policy of a `/contact-policy` answer's `data` (`{ policy: {…} | null }`; a bare policy is read
 * too), undefined when off.
 *
 * @example
 * contactPolicyOf({ policy: null }); // undefined
 * contactPolicyOf({ policy: { marketingPerPerson: 2, perDays: 7, categories: ['MARKETING'], updatedAt: '…' } })?.perDays; // 7
 */
export function contactPolicyOf(data: unknown): ContactPolicyView | undefined {
  const value = data !== null && typeof data === 'object' && 'policy' in data ? (data as { policy: unknown }).policy : data;
  const policy = value as Partial<ContactPolicyView> | null | undefined;
  return policy && typeof policy.marketingPerPerson === 'number' && typeof policy.perDays === 'number' ? (policy as ContactPolicyView) : undefined;
}

/** The policy form's labels, by the body's field: a problem names the field the person typed in. */
const POLICY_LABELS: Readonly<Record<string, string>> = {
  marketingPerPerson: 'Messages per person',
  perDays: 'In any (days)',
  categories: 'Categories counted',
};

/**
 * The body of `PUT /contact-policy` from the form, or the problem as the API's 400 words it (its own
 * schema, shared/send-rules/contact-policy.schema.ts, and validation), behind the field's label.
 *
 * @example
 * contactPolicyBodyOf('2', '7', ['MARKETING']); // { body: { marketingPerPerson: 2, perDays: 7, categories: ['MARKETING'] } }
 * contactPolicyBodyOf('0', '7', ['MARKETING']).problem; // 'Messages per person: marketingPerPerson must be at least 1'
 */
export function contactPolicyBodyOf(perPerson: string, perDays: string, categories: readonly string[]): { body?: Record<string, unknown>; problem?: string } {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const body = { marketingPerPerson: number(perPerson), perDays: number(perDays), categories: [...categories] };
  const checked = v.safeParse(contactPolicyRequestSchema, body, { abortPipeEarly: true });
  if (checked.success) return { body };
  const message = issueMessages(checked.issues)[0]!;
  const label = POLICY_LABELS[message.split(/[ .[]/)[0]!];
  return { problem: label ? `${label}: ${message}` : message };
}
