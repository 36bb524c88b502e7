/**
 * Meta's webhook body (`object: whatsapp_business_account`), read leniently: unknown fields are
 * ignored, and one malformed status, message or change is skipped (and reported, by position and
 * field names only) instead of failing the batch, since a batch redelivered for a defect in one of
 * its elements would only fail again. Shapes follow ../shared/meta/business-messaging-api_v23.0.yaml
 * (StatusMessageValue, Statuses, StatusError) and Meta's message and template-status references.
 *
 * The queue message around the raw body is shared/meta-app/meta-event-message.ts (its writer's module).
 */
import { metaLinkClicksOf, type MetaLinkClick } from '../clicks/meta-link-clicks';
import * as v from 'valibot';
import { parseCallbackData } from './callback-data';
import { identityChangeOf, systemSchema } from './identity-change-message';
import { pricingOf } from './message-pricing';
import { profilesOf } from './webhook-contacts';
import type { InboundMessage, StatusEvent } from './ports';
import { readUserPreferencesChange, USER_PREFERENCES_FIELD, type UserPreferencesChange } from './user-preferences.schema';
import {
  readTemplateChange,
  TEMPLATE_CHANGE_FIELDS,
  type TemplateAttributeChange,
  type TemplateChangeField,
  type TemplateStatusChange,
} from './template-events.schema';

export type { TemplateAttributeChange, TemplateStatusChange } from './template-events.schema';
export type { UserPreferencesChange } from './user-preferences.schema';

/* ------------------------------------------------------------- pieces */

const nonEmpty = (field: string) => v.pipe(v.string(`${field} must be a string`), v.minLength(1, `${field} must not be empty`));
/** Meta sends epoch seconds as a string; a number is accepted too. */
const epochSeconds = (field: string) =>
  v.pipe(
    v.union([v.pipe(v.string(), v.regex(/^\d{1,12}$/)), v.pipe(v.number(), v.integer(), v.minValue(0))], `${field} must be epoch seconds`),
    v.transform((seconds) => new Date(Number(seconds) * 1000)),
  );

const statusErrorSchema = v.looseObject({
  code: v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/))], 'errors[].code must be a number'), v.transform(Number)),
  title: v.optional(v.string()),
  message: v.optional(v.string()),
});

/** Lenient: every value is an open string read by pricingOf (a field of another type is ignored, the status still applies). */
const pricingSchema = v.looseObject({
  billable: v.optional(v.unknown()),
  pricing_model: v.optional(v.unknown()),
  type: v.optional(v.unknown()),
  category: v.optional(v.unknown()),
  subtype: v.optional(v.unknown()),
});

/**
 * Meta's status values this platform records, and the stage each is recorded as: `played` (a voice
 * message listened to, 2025-11) implies it was read, so it counts with read. Any other value
 * (a status Meta adds later) is ignored: not recorded, not skipped, no warning.
 */
const RECORDED_STATUSES: Readonly<Record<string, StatusEvent['stage']>> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  played: 'read',
  failed: 'failed',
};
const stageOfStatus = (status: string): StatusEvent['stage'] | undefined => (Object.hasOwn(RECORDED_STATUSES, status) ? RECORDED_STATUSES[status] : undefined);

const statusSchema = v.looseObject({
  id: nonEmpty('id'),
  // An open string: stageOfStatus decides what is recorded, an unknown value is ignored (never skipped with a warning).
  status: v.pipe(v.string('status must be a string'), v.trim(), v.toLowerCase()),
  timestamp: epochSeconds('timestamp'),
  // A send to a business-scoped user id has no recipient_id unless Meta may show the number
  // (../shared/meta/usernames-and-bsuid.md §5): recipient_user_id then names the recipient.
  recipient_id: v.optional(nonEmpty('recipient_id')),
  recipient_user_id: v.optional(nonEmpty('recipient_user_id')),
  biz_opaque_callback_data: v.optional(v.string()),
  errors: v.optional(v.array(statusErrorSchema, 'errors must be a list')),
  pricing: v.optional(v.fallback(v.nullable(pricingSchema), null)),
});

const replySchema = v.looseObject({ id: v.optional(v.string()), title: v.optional(v.string()) });
const messageSchema = v.looseObject({
  // A user Meta knows only by BSUID has no `from` (../shared/meta/usernames-and-bsuid.md §4): `from_user_id` names them.
  from: v.optional(nonEmpty('from')),
  from_user_id: v.optional(nonEmpty('from_user_id')),
  from_parent_user_id: v.optional(nonEmpty('from_parent_user_id')),
  id: nonEmpty('id'),
  timestamp: epochSeconds('timestamp'),
  type: nonEmpty('type'),
  text: v.optional(v.looseObject({ body: v.optional(v.string()) })),
  button: v.optional(v.looseObject({ text: v.optional(v.string()), payload: v.optional(v.string()) })),
  // The message this one replies to (a swipe-reply, a quick-reply tap): Meta's `context.id`; a forwarded message's context has no id.
  context: v.optional(v.fallback(v.optional(v.looseObject({ id: v.optional(v.string()) })), undefined)),
  // `user_changed_number` / `user_changed_user_id`: the user changed number, so Meta gave them a new BSUID (system.user_id).
  system: v.optional(v.fallback(v.optional(systemSchema), undefined)),
  interactive: v.optional(
    v.looseObject({
      type: v.optional(v.string()),
      button_reply: v.optional(replySchema),
      list_reply: v.optional(replySchema),
    }),
  ),
});

const metadataSchema = v.looseObject({
  phone_number_id: nonEmpty('metadata.phone_number_id'),
  display_phone_number: v.optional(v.string(), ''),
});

/** The parts of a `messages` value that decide the owner; its lists are read element by element. */
const messagesValueSchema = v.looseObject({
  metadata: metadataSchema,
  statuses: v.optional(v.array(v.unknown(), 'statuses must be a list'), []),
  messages: v.optional(v.array(v.unknown(), 'messages must be a list'), []),
  contacts: v.optional(v.array(v.unknown(), 'contacts must be a list'), []),
  errors: v.optional(v.array(v.unknown(), 'errors must be a list'), []),
});

const changeSchema = v.looseObject({ field: v.string('field must be a string'), value: v.unknown() });
const entrySchema = v.looseObject({
  id: nonEmpty('entry[].id'),
  time: v.optional(v.union([v.number(), v.string()])),
  changes: v.optional(v.array(v.unknown(), 'changes must be a list'), []),
});
const webhookBodySchema = v.looseObject({
  object: v.literal('whatsapp_business_account', 'object must be whatsapp_business_account'),
  entry: v.array(v.unknown(), 'entry must be a list'),
});

/* ------------------------------------------------------------- result */

/** Statuses and inbound messages of one business number (a `messages` change). */
export interface MessagesChange {
  kind: 'messages';
  /** The WABA id of the entry. */
  entryId: string;
  phoneNumberId: string;
  statuses: StatusEvent[];
  messages: InboundMessage[];
  /** `value.errors[]` (system-level errors without a status): counted, nothing to apply. */
  systemErrors: number;
  /** A `standby` change (same value shape): inbound while another app holds the thread; its messages carry `standby`. */
  standby?: true;
  /** Meta's Marketing Messages link clicks (`user_actions`; shared/clicks/meta-link-clicks.ts); absent when none. */
  linkClicks?: MetaLinkClick[];
}

/** The webhook field Meta posts a number's activity on while another app holds the conversation (fact sheet row 7). */
export const STANDBY_FIELD = 'standby';

export type WebhookChange = MessagesChange | TemplateStatusChange | TemplateAttributeChange | UserPreferencesChange;

/** Something the parser skipped: where, and which fields were wrong (never their values). */
export interface SkippedElement {
  /** e.g. `entry[0].changes[1].value.statuses[3]` */
  at: string;
  problem: string;
}

export interface ParsedWebhookBody {
  changes: WebhookChange[];
  skipped: SkippedElement[];
  /** Changes of fields this platform does not consume (account updates, …), and Meta's impending category notices. */
  ignored: number;
}

const problemOf = (issues: readonly v.BaseIssue<unknown>[]): string =>
  [...new Set(issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.expected ? `expected ${issue.expected}` : 'invalid'}`))].join('; ');

const dateOfEntryTime = (time: unknown, fallback: Date): Date => {
  const seconds = Number(time);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : fallback;
};

/**
 * Parses a webhook body (already JSON-decoded or raw text). Never throws: a body that is not a
 * WABA webhook at all yields no changes and one skipped element at `(body)`.
 */
export function parseWebhookBody(body: unknown, receivedAt: Date): ParsedWebhookBody {
  const parsed: ParsedWebhookBody = { changes: [], skipped: [], ignored: 0 };
  let json = body;
  if (typeof body === 'string') {
    try {
      json = JSON.parse(body);
    } catch {
      parsed.skipped.push({ at: '(body)', problem: 'not JSON' });
      return parsed;
    }
  }
  const root = v.safeParse(webhookBodySchema, json);
  if (!root.success) {
    parsed.skipped.push({ at: '(body)', problem: problemOf(root.issues) });
    return parsed;
  }
  root.output.entry.forEach((rawEntry, entryPosition) => {
    const entry = v.safeParse(entrySchema, rawEntry);
    if (!entry.success) {
      parsed.skipped.push({ at: `entry[${entryPosition}]`, problem: problemOf(entry.issues) });
      return;
    }
    entry.output.changes.forEach((rawChange, changePosition) => {
      const at = `entry[${entryPosition}].changes[${changePosition}]`;
      const change = v.safeParse(changeSchema, rawChange);
      if (!change.success) {
        parsed.skipped.push({ at, problem: problemOf(change.issues) });
        return;
      }
      if (change.output.field === 'messages') {
        const messages = parseMessagesValue(entry.output.id, change.output.value, `${at}.value`, parsed.skipped);
        if (messages) parsed.changes.push(messages);
      } else if (change.output.field === STANDBY_FIELD) {
        // Read like `messages` (STOP keywords, service windows, contacts, identity pairs), marked so nothing answers it.
        const standby = parseMessagesValue(entry.output.id, change.output.value, `${at}.value`, parsed.skipped);
        if (standby) parsed.changes.push({ ...standby, standby: true, messages: standby.messages.map((message) => ({ ...message, standby: true })) });
      } else if ((TEMPLATE_CHANGE_FIELDS as readonly string[]).includes(change.output.field)) {
        const reading = readTemplateChange(
          change.output.field as TemplateChangeField,
          change.output.value,
          entry.output.id,
          dateOfEntryTime(entry.output.time, receivedAt),
        );
        if ('issues' in reading) parsed.skipped.push({ at: `${at}.value`, problem: problemOf(reading.issues) });
        else if ('ignored' in reading) parsed.ignored += 1;
        else parsed.changes.push(reading.change);
      } else if (change.output.field === USER_PREFERENCES_FIELD) {
        const preferences = readUserPreferencesChange(entry.output.id, change.output.value, `${at}.value`, parsed.skipped);
        if (preferences) parsed.changes.push(preferences);
      } else {
        parsed.ignored += 1;
      }
    });
  });
  return parsed;
}

/**
 * A quick-reply tap: a template's (`button` message: `{ payload, text }`) or an interactive
 * message's (`interactive.button_reply`: `{ id, title }`, the id being the payload we gave).
 */
function tappedButtonOf(button: { text?: string; payload?: string } | undefined, reply: { id?: string; title?: string } | undefined): InboundMessage['button'] {
  if (button && (button.payload !== undefined || button.text !== undefined))
    return { payload: button.payload ?? button.text ?? '', text: button.text ?? button.payload ?? '' };
  if (reply && (reply.id !== undefined || reply.title !== undefined)) return { payload: reply.id ?? reply.title ?? '', text: reply.title ?? reply.id ?? '' };
  return undefined;
}

/**
 * One element of a `messages` value's `statuses`, as the event to record: undefined when it is
 * malformed (then added to `skipped` at `at`) or has a status value this platform does not record.
 */
function statusEventOf(rawStatus: unknown, at: string, skipped: SkippedElement[]): StatusEvent | undefined {
  const status = v.safeParse(statusSchema, rawStatus);
  if (!status.success) {
    skipped.push({ at, problem: problemOf(status.issues) });
    return undefined;
  }
  const stage = stageOfStatus(status.output.status);
  // A status value Meta added after this was written: nothing to record, and nothing wrong (no warning).
  if (stage === undefined) return undefined;
  const recipientId = status.output.recipient_id ?? status.output.recipient_user_id;
  if (recipientId === undefined) {
    skipped.push({ at, problem: 'recipient_id or recipient_user_id is required' });
    return undefined;
  }
  const reference = parseCallbackData(status.output.biz_opaque_callback_data);
  const error = status.output.errors?.[0];
  // A failed message is not billed; only sent, delivered and read carry a pricing fact.
  const pricing = status.output.pricing && stage !== 'failed' ? pricingOf(status.output.pricing) : undefined;
  return {
    messageId: status.output.id,
    stage,
    timestamp: status.output.timestamp,
    recipientId,
    ...(status.output.recipient_user_id === undefined ? {} : { recipientUserId: status.output.recipient_user_id }),
    ...(reference ? { reference } : {}),
    ...(error ? { error: { code: error.code, title: error.title ?? error.message ?? '' } } : {}),
    ...(pricing ? { pricing } : {}),
  };
}

function parseMessagesValue(entryId: string, rawValue: unknown, at: string, skipped: SkippedElement[]): MessagesChange | undefined {
  const value = v.safeParse(messagesValueSchema, rawValue);
  if (!value.success) {
    skipped.push({ at, problem: problemOf(value.issues) });
    return undefined;
  }
  const { metadata } = value.output;
  const change: MessagesChange = {
    kind: 'messages',
    entryId,
    phoneNumberId: metadata.phone_number_id,
    statuses: [],
    messages: [],
    systemErrors: value.output.errors.length,
  };
  const linkClicks = metaLinkClicksOf(rawValue);
  if (linkClicks.length > 0) change.linkClicks = linkClicks;

  value.output.statuses.forEach((rawStatus, position) => {
    const status = statusEventOf(rawStatus, `${at}.statuses[${position}]`, skipped);
    if (status) change.statuses.push(status);
  });

  const profiles = profilesOf(value.output.contacts);
  const businessPhoneNumber = metadata.display_phone_number.replace(/\D/g, '');
  value.output.messages.forEach((rawMessage, position) => {
    const message = v.safeParse(messageSchema, rawMessage);
    if (!message.success) {
      skipped.push({ at: `${at}.messages[${position}]`, problem: problemOf(message.issues) });
      return;
    }
    const { from, from_user_id: fromUserId, from_parent_user_id: parentUserId, interactive } = message.output;
    if (from === undefined && fromUserId === undefined) {
      skipped.push({ at: `${at}.messages[${position}]`, problem: 'from or from_user_id is required' });
      return;
    }
    const text = message.output.text?.body ?? message.output.button?.text ?? interactive?.button_reply?.title ?? interactive?.list_reply?.title;
    const replyTo = message.output.context?.id;
    const button = tappedButtonOf(message.output.button, interactive?.button_reply);
    const profile = (fromUserId === undefined ? undefined : profiles.get(fromUserId)) ?? (from === undefined ? undefined : profiles.get(from));
    const { system } = message.output;
    const newUserId = identityChangeOf(system, { ...(from === undefined ? {} : { from }), ...(fromUserId === undefined ? {} : { fromUserId }) });
    change.messages.push({
      messageId: message.output.id,
      ...(from === undefined ? {} : { from }),
      ...(fromUserId === undefined ? {} : { fromUserId }),
      ...(parentUserId === undefined ? {} : { parentUserId }),
      ...(profile?.name ? { profileName: profile.name } : {}),
      ...(profile?.username ? { username: profile.username } : {}),
      ...(newUserId ? { userIdChange: newUserId } : {}),
      timestamp: message.output.timestamp,
      type: message.output.type,
      ...(text !== undefined ? { text } : {}),
      ...(replyTo ? { context: { messageId: replyTo } } : {}),
      ...(button ? { button } : {}),
      phoneNumberId: metadata.phone_number_id,
      businessPhoneNumber,
    });
  });
  return change;
}
