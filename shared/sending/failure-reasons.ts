/**
 * The one table of why a send failed: every Meta error code the platform knows (how a rejection
 * with it is retried, what it means in words, what the business can do) and the platform's own
 * reason codes (the ledger's `failureReasonCode`, the recipients list's `failureReason`). The
 * classifier (graph-answer.ts) reads the retry classes; the chunk worker records `failureReasonOf`;
 * the recipients list shows `describeReason`. A new Meta code is one row here (and one row of
 * test/unit/sending/graph-answer.test.ts).
 *
 * Facts: /work/shared/meta/webhooks-and-limits.md (limits, 8 "Other codes"),
 * template-components.md section 9 (parameter errors) and marketing-messages-api.md section 5 (the
 * Marketing Messages API's codes). Texts already shown by the recipients list
 * before this table existed are kept word for word.
 */
import type { GraphError } from './ports';

/**
 * How a rejection with a code is retried: `rate-limit` (not sent, retried after a hold of the whole
 * account), `transient` (Meta's temporary failure: retried with backoff), `final` (never retried).
 */
export type RetryClass = 'rate-limit' | 'transient' | 'final';

export interface ReasonDescription {
  /** What happened, in words for the business (the recipients list's `failureReason`). */
  text: string;
  /** What the business can do about it. */
  action: string;
}

interface MetaCode extends ReasonDescription {
  retry: RetryClass;
  /** Meta refuses the template itself, not this recipient: the job is held, the recipient released (the value is the pause reason). */
  holdsTemplate?: string;
  /**
   * Said by `/marketing_messages` about the template or the account, never about the recipient, and
   * nothing was sent: the chunk worker sends the recipient again through `/messages` (Cloud API).
   */
  fallsBackToCloudApi?: true;
  /**
   * Meta refuses the business account (or its sending number), not this recipient: the job and the
   * account's other running jobs are held until the business resumes them (the value is the pause
   * reason); the recipient is released, never failed (docs/BROADCAST.md "When Meta refuses the account").
   */
  holdsAccount?: string;
  /** Meta refuses the recipient's country for this account: the job's other recipients of that country fail with it, unsent. */
  stopsCountry?: true;
}

const SEND_AGAIN_LATER = 'Send to the recipient again later';
const rateLimit = (text: string, action = "Send again later; if it keeps happening, lower the account's messages per second"): MetaCode => ({
  retry: 'rate-limit',
  text,
  action,
});
const transient = (text: string): MetaCode => ({ retry: 'transient', text, action: SEND_AGAIN_LATER });
const final = (text: string, action: string): MetaCode => ({ retry: 'final', text, action });
/** A refusal of the Marketing Messages API the chunk worker answers by sending through Cloud API instead (docs/BROADCAST.md "Marketing Messages API"). */
const marketingRefusal = (text: string, action: string): MetaCode => ({ ...final(text, action), fallsBackToCloudApi: true });

const META_CODES: ReadonlyMap<number, MetaCode> = new Map([
  // Throttling: the message was not sent; the sending engine holds the account and retries.
  [4, rateLimit("The app's call rate limit at Meta was reached; retries ran out")],
  [80007, rateLimit("The business account's call rate limit at Meta was reached; retries ran out")],
  [130429, rateLimit('Rate limit reached; retries ran out')],
  [131056, rateLimit('Too many messages to this number in a short time; retries ran out', 'Wait a minute or more before messaging this number again')],
  [
    131048,
    {
      ...rateLimit(
        'Meta limited sending because of spam reports; retries ran out',
        'Improve message quality (fewer blocks and reports), then resume the broadcast',
      ),
      holdsAccount: 'ACCOUNT_SPAM_RATE_LIMITED',
    },
  ],
  // Meta's temporary failures.
  [1, transient('Meta reported an unknown error; retries ran out')],
  [2, transient("Meta's service was temporarily unavailable; retries ran out")],
  [131000, transient('Something went wrong at Meta; retries ran out')],
  [131016, transient("Meta's service was overloaded; retries ran out")],
  // The request itself.
  [100, final('A parameter of the message was not valid', 'Check the template name, language, parameters and the number')],
  [131008, final('A required parameter is missing', "Add the missing parameter (for example a URL button's value)")],
  [131009, final('A parameter value is not valid', 'Correct the parameter value')],
  [131051, final('Unsupported message type', 'Use a message type WhatsApp supports')],
  // On /marketing_messages 131055 means "only marketing templates": the worker then sends through Cloud API.
  [
    131055,
    marketingRefusal(
      'Meta does not allow this operation (on the Marketing Messages API: the template is not a marketing template)',
      "Check the request against Meta's documentation; a broadcast sends such a template through Cloud API by itself",
    ),
  ],
  [
    131062,
    final(
      'Authentication templates and templates with a max price (bid) cannot be sent to a business-scoped user id (BSUID)',
      "Send to the user's phone number, or use a template without a max price",
    ),
  ],
  // Max price (a marketing template's bid cap, fact sheet row 4): the Marketing Messages API only, not in every country.
  [
    131061,
    final(
      'A template with a max price was sent through Cloud API (/messages); Meta sends such templates through the Marketing Messages API only',
      'Send it again as a broadcast (the platform sends max-price templates through the Marketing Messages API); through /upstream use the marketing-messages route',
    ),
  ],
  [131065, final("Max price is not available in the recipient's country", 'Send these recipients a template without a max price')],
  // The template.
  [132000, final('The number of parameters does not match the template', 'Give exactly as many values as the template has placeholders')],
  [132001, final('The template does not exist in this language', "Check the template's name and language, and that it is approved")],
  [132005, final('The text is too long once the parameters are filled in', 'Shorten the parameter values')],
  [132007, final("The content breaks Meta's formatting policy", 'Remove line breaks, tabs and runs of spaces from the parameters')],
  [132012, final("A parameter's format does not match the template", 'Send the parameter type the template expects (for example an image header)')],
  [
    132015,
    {
      ...final('Meta paused the template for low quality', 'Improve the template; the broadcast resumes by itself when Meta approves it again'),
      holdsTemplate: 'TEMPLATE_PAUSED',
    },
  ],
  [132016, { ...final('Meta disabled the template', 'Create a new template and send again'), holdsTemplate: 'TEMPLATE_DISABLED' }],
  [132018, final("Meta could not validate the template's parameters", 'Check the parameters against the template')],
  [132068, final("The template's flow is blocked", 'Fix or replace the flow')],
  [132069, final("The template's flow is throttled", 'Send again later')],
  // The recipient.
  [131026, final('The message could not be delivered', 'Check the number is on WhatsApp; the user may need to update WhatsApp or accept its terms')],
  [131047, final('More than 24 hours since the customer last replied', 'Send an approved template instead')],
  [131049, final('Meta chose not to deliver this marketing message', 'Do not resend at once; try again days later or after the user replies')],
  [131050, final('The user stopped marketing messages', 'Send this user no more marketing messages')],
  [130472, final("Meta held the message back: the user's number is part of an experiment", 'Nothing to do; do not resend at once')],
  [131021, final('The recipient is the sending number itself', 'Send to another number')],
  // Conversation Routing (fact sheet row 7): Meta Business Agent or another partner holds the thread; this app is on standby.
  [
    131070,
    final(
      'Another app (such as Meta Business Agent) holds this conversation; this app is on standby for it',
      "Ask the business to pass the conversation to this app (thread control) or make it the number's primary app in Meta Business Suite, then send again",
    ),
  ],
  // The business account.
  [190, final("The business account's access token is invalid or expired", 'Connect the business account again')],
  [10, final('The app lacks a permission on the business account', 'Grant the app the WhatsApp permissions again')],
  [131005, final('Meta denied access to the business account', 'Grant the app the WhatsApp permissions again')],
  [368, final('Meta temporarily blocked the account for policy violations', "Review Meta's policy notices for the account")],
  [131031, { ...final('The business account is locked', 'Contact Meta support, then resume the broadcast'), holdsAccount: 'ACCOUNT_LOCKED' }],
  [
    131042,
    {
      ...final('A payment issue with the business account', 'Fix the payment method in Meta Business Manager, then resume the broadcast'),
      holdsAccount: 'ACCOUNT_PAYMENT_ISSUE',
    },
  ],
  [131057, final('The business account is in maintenance mode', 'Send again in a few minutes')],
  [133010, final('The phone number is not registered with the Cloud API', 'Register the number, then send again')],
  // The Marketing Messages API (/marketing_messages). 134102 comes with HTTP 500 and Meta's error, so
  // the classifier calls it a rejection retried by its status; the worker never retries it there: it
  // sends through Cloud API at once (a refusal means nothing went out, so that cannot duplicate).
  [
    134100,
    marketingRefusal(
      'Only marketing templates can be sent through the Marketing Messages API',
      'Send the template through Cloud API (a broadcast does so by itself)',
    ),
  ],
  [
    134101,
    marketingRefusal(
      'The template is still syncing with the Marketing Messages API',
      'Send through the Marketing Messages API again in about 10 minutes; a broadcast sends through Cloud API meanwhile',
    ),
  ],
  [
    134102,
    marketingRefusal(
      'The template is unavailable on the Marketing Messages API (the account is not eligible, or its sync failed)',
      "Check the business account's Marketing Messages API onboarding and eligibility in WhatsApp Manager",
    ),
  ],
  [
    131063,
    final(
      'Meta disabled marketing templates on Cloud API for this business account',
      'Turn the Marketing Messages API on for the account (npm run admin -- set-marketing-messages --waba <id> --enabled true), or allow marketing on Cloud API again',
    ),
  ],
  [
    131064,
    {
      ...final(
        'The business account is over its messaging limit because of template-classification violations',
        "Wait for Meta's enforcement period to end (see WhatsApp Manager), then resume the broadcast",
      ),
      holdsAccount: 'ACCOUNT_MESSAGING_LIMITED',
    },
  ],
  [
    130497,
    {
      ...final('The business account may not message users in this country', "Remove this country's recipients, or ask Meta to allow messaging there"),
      stopsCountry: true,
    },
  ],
  [
    1752041,
    final('Meta refused a duplicate Marketing Messages API onboarding request', 'Nothing to resend: another partner already sent the onboarding request'),
  ],
]);

/** Recorded for a FAILED entry that carries no code. */
export const DEFAULT_FAILURE_REASON = 'TEMPLATE_SEND_FAILED';
/** Recorded for the recipients a template pause that outlasted TEMPLATE_PAUSE_TIMEOUT_MINUTES leaves. */
export const TEMPLATE_PAUSED_FAILURE = 'TEMPLATE_PAUSED';
/** Recorded (as its prefix, `UNKNOWN_OUTCOME: <why>`) for a send whose answer never came. */
export const UNKNOWN_OUTCOME = 'UNKNOWN_OUTCOME';
/** Recorded for the recipients of a message given up after its last delivery (never sent). */
export const WORKER_ERROR = 'WORKER_ERROR';
/** Recorded for a recipient on the organization's opt-out list, at accept time or at send time (never sent). */
export const OPTED_OUT = 'OPTED_OUT';
/** A recipient over the organization's frequency cap (docs/CAMPAIGNS.md "Frequency caps"): listed FAILED, never sent or charged. */
export const FREQUENCY_CAPPED = 'FREQUENCY_CAPPED';
/** A campaign's member without an attribute a value needs and no fallback: listed FAILED, never sent. */
export const MISSING_ATTRIBUTE = 'MISSING_ATTRIBUTE';
/** A campaign's member whose filled values the template would refuse: listed FAILED, never sent. */
export const INVALID_PARAMETER = 'INVALID_PARAMETER';
/** A rejection that names the number (131026, 100 about `to`): the contract's name. */
export const INVALID_PHONE_NUMBER = 'INVALID_PHONE_NUMBER';

/** The platform's own codes (accept-time refusals, the worker's give-ups). */
const PLATFORM_REASONS: ReadonlyMap<string, ReasonDescription> = new Map<string, ReasonDescription>([
  [INVALID_PHONE_NUMBER, { text: 'The number is not a valid WhatsApp number', action: 'Correct the number: international digits of a WhatsApp user' }],
  ['DUPLICATE_RECIPIENT', { text: 'The number appears earlier in the same request', action: 'Nothing: the earlier occurrence is sent' }],
  ['UNSUPPORTED_COUNTRY_CODE', { text: 'No price is set for the country code', action: 'Ask the operator to price the country, then send again' }],
  [OPTED_OUT, { text: "The recipient opted out of the organization's messages", action: 'Send only if the recipient opts in again' }],
  [
    FREQUENCY_CAPPED,
    {
      text: "The recipient already had as many messages as the organization's frequency cap allows",
      action: 'Nothing: the cap protects the recipient; send with deferCapped to send when the cap allows',
    },
  ],
  [WORKER_ERROR, { text: 'Sending kept failing and was given up', action: SEND_AGAIN_LATER }],
  [DEFAULT_FAILURE_REASON, { text: 'The message could not be sent', action: SEND_AGAIN_LATER }],
  [TEMPLATE_PAUSED_FAILURE, { text: 'Meta kept the template paused past the allowed time', action: "Improve the template's quality, then send again" }],
  [UNKNOWN_OUTCOME, { text: 'No answer came: the message may have been sent', action: 'Wait for its delivery status; do not resend' }],
  // The earlier send's triage records a parameter count mismatch under this number.
  ['131014', { text: 'The template parameters do not match the template', action: 'Give exactly as many values as the template has placeholders' }],
  // Meta's US marketing pause: a MARKETING template to a US (+1) recipient, refused at accept (shared/broadcast/us-marketing-guard.ts).
  [
    'US_MARKETING_PAUSED',
    {
      text: 'Meta does not deliver marketing templates to US (+1) numbers',
      action: "Send a UTILITY template, or remove the recipient; the operator can turn the organization's US marketing guard off",
    },
  ],
  // A campaign's member skipped at expansion (docs/CAMPAIGNS.md "Counts"), never sent.
  [
    MISSING_ATTRIBUTE,
    {
      text: 'The person lacks an attribute a template value needs, and the value has no fallback',
      action: 'Add the attribute to the person, or give the value a fallback',
    },
  ],
  [
    INVALID_PARAMETER,
    { text: "The person's values, once filled, break a rule of the template", action: "Correct the person's attributes so the filled values fit the template" },
  ],
]);

/**
 * How a rejection carrying `code` is retried; a code the table does not know is final.
 *
 * @example
 * retryClassOf(130429); // 'rate-limit'
 * retryClassOf(131026); // 'final'
 */
export const retryClassOf = (code: number): RetryClass => META_CODES.get(code)?.retry ?? 'final';

/**
 * The reason code recorded for a rejected recipient: the contract's names where they apply, else
 * Meta's code as text.
 *
 * @example
 * failureReasonOf({ code: 131026, message: 'Message undeliverable', type: 'OAuthException' }); // 'INVALID_PHONE_NUMBER'
 * failureReasonOf({ code: 131047, message: 'Re-engagement message', type: 'OAuthException' }); // '131047'
 */
export function failureReasonOf(error: Pick<GraphError, 'code' | 'message'>): string {
  // 131026: message undeliverable (not a WhatsApp number); 100 with a `to` complaint: malformed number.
  if (error.code === 131026 || (error.code === 100 && /phone|recipient|\bto\b/i.test(error.message))) return INVALID_PHONE_NUMBER;
  return String(error.code);
}

/**
 * The pause reason when Meta refused the template itself (132015 paused, 132016 disabled): nothing
 * was sent and it may come back, so the job is held rather than the recipient failed.
 *
 * @example
 * templateHoldOf(132015); // 'TEMPLATE_PAUSED'
 * templateHoldOf(131026); // undefined
 */
export const templateHoldOf = (code: number): string | undefined => META_CODES.get(code)?.holdsTemplate;

/**
 * The pause reason when Meta refused the business account or its sending number (131064 messaging
 * limit, 131042 payment, 131031 locked, 131048 spam rate limit): nothing was sent, and no recipient
 * can be sent until the business acts, so the account's jobs are held until resumed.
 *
 * @example
 * accountHoldOf(131064); // 'ACCOUNT_MESSAGING_LIMITED'
 * accountHoldOf(131026); // undefined
 */
export const accountHoldOf = (code: number): string | undefined => META_CODES.get(code)?.holdsAccount;

/**
 * Whether a refusal with `code` refuses the recipient's whole country for the account (130497): the
 * job's other recipients of that calling code fail with the same reason without being sent.
 *
 * @example
 * stopsCountry(130497); // true
 * stopsCountry(131026); // false
 */
export const stopsCountry = (code: number): boolean => META_CODES.get(code)?.stopsCountry === true;

/**
 * A reason code (the platform's, or Meta's as text) in words, with what the business can do;
 * a code the table does not know reads as the default reason.
 *
 * @example
 * describeReason('131047').text; // 'More than 24 hours since the customer last replied'
 * describeReason('WORKER_ERROR').action; // 'Send to the recipient again later'
 */
export function describeReason(code: string): ReasonDescription {
  const own = PLATFORM_REASONS.get(code);
  if (own) return own;
  const meta = /^\d+$/.test(code) ? META_CODES.get(Number(code)) : undefined;
  return meta ? { text: meta.text, action: meta.action } : PLATFORM_REASONS.get(DEFAULT_FAILURE_REASON)!;
}

/**
 * Whether a refusal by the Marketing Messages API (`/marketing_messages`) with `code` is answered by
 * sending the recipient through `/messages` instead: 131055 and 134100 (not a marketing template),
 * 134101 (still syncing), 134102 (unavailable: eligibility or a failed sync). Nothing was sent.
 *
 * @example
 * fallsBackToCloudApi(134101); // true
 * fallsBackToCloudApi(131026); // false
 */
export const fallsBackToCloudApi = (code: number): boolean => META_CODES.get(code)?.fallsBackToCloudApi === true;

/** Every Meta code of the table (the classifier's test walks them). */
export const knownMetaCodes = (): number[] => [...META_CODES.keys()];

/** One reason of the table as the campaign console reads it (its `failure-codes.json`). */
export interface ReasonRow extends ReasonDescription {
  /** Meta's code as text, or the platform's own reason code (the summary's `failuresByReason` keys). */
  code: string;
  /** Meta's codes only: how a rejection with it is retried. */
  retry?: RetryClass;
}

/**
 * Every reason of the table, Meta's codes first: what the campaign console shows beside a
 * failure count (served as a JSON file built from this table, never a copy of it).
 *
 * @example
 * reasonTable().find((row) => row.code === '131049');
 * // { code: '131049', retry: 'final', text: 'Meta chose not to deliver this marketing message', action: 'Do not resend at once; …' }
 */
export const reasonTable = (): ReasonRow[] => [
  ...[...META_CODES].map(([code, meta]) => ({ code: String(code), retry: meta.retry, text: meta.text, action: meta.action })),
  ...[...PLATFORM_REASONS].map(([code, own]) => ({ code, text: own.text, action: own.action })),
];
