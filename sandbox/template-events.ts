/**
 * Template events the control API triggers, each changing the sandbox's own template (so sends and
 * Graph reads see it) and, while webhooks are active, posting Meta's webhook for it:
 * `message_template_status_update`, `message_template_quality_update` and
 * `template_category_update` (shapes from Meta's webhook references; the category update has an
 * "impending" form, sent before an automated change, and a "completed" one).
 */
import { TEMPLATE_QUALITY_SCORES, type TemplateQualityScore } from './account-state';
import { fail, isRecord, type Json } from './control-values';
import { SandboxRequestError } from './sandbox-request-error';
import type { SandboxState, StoredAccount, StoredTemplate } from './sandbox-state';
import { TEMPLATE_CATEGORIES, type TemplateCategory, type TemplateStatus } from './sandbox-types';
import { templateStatusChange, type WebhookChange } from './webhook-payloads';

/** Posts one change of a WABA (signed, to the current target); false when webhooks are off. */
export type TemplateChangePoster = (wabaId: string, change: WebhookChange, kind: string, at: number) => boolean;

interface NamedTemplate {
  owner: StoredAccount;
  stored: StoredTemplate;
  name: string;
  language: string;
}

function requiredString(body: Json, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value.trim() === '') fail(`${key} must be a non-empty string`);
  return value;
}

function optionalString(body: Json, key: string): string | undefined {
  return body[key] === undefined ? undefined : requiredString(body, key);
}

function oneOf<T extends string>(body: Json, key: string, values: readonly T[]): T {
  const value = body[key];
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) fail(`${key} must be one of ${values.join(', ')}`);
  return value as T;
}

/** The template named by `name` + `language` (+ `wabaId` when two accounts have it). */
function findNamedTemplate(state: SandboxState, input: unknown, what: string): { body: Json; found: NamedTemplate } {
  if (!isRecord(input)) fail(`${what} must be a JSON object`);
  const name = requiredString(input, 'name');
  const language = requiredString(input, 'language');
  const wabaId = optionalString(input, 'wabaId');
  const owners = wabaId === undefined ? state.allAccounts() : [state.account(wabaId)].filter((owner) => owner !== undefined);
  if (wabaId !== undefined && owners.length === 0) throw new SandboxRequestError(404, `no account with wabaId ${wabaId}`);
  const found = owners.flatMap((owner) => {
    const stored = state.findTemplate(owner, name, language);
    return stored === undefined ? [] : [{ owner, stored, name, language }];
  });
  if (found.length === 0) throw new SandboxRequestError(404, `no template ${name} (${language})`);
  if (found.length > 1) throw new SandboxRequestError(409, `several accounts have template ${name} (${language}): give wabaId`);
  return { body: input, found: found[0]! };
}

/** The fields every template webhook starts with; Meta sends the id as a number. */
function templateFields(found: NamedTemplate): Record<string, unknown> {
  return { message_template_id: Number(found.stored.template.id), message_template_name: found.name, message_template_language: found.language };
}

export class TemplateEvents {
  constructor(
    private readonly state: SandboxState,
    private readonly post: TemplateChangePoster,
  ) {}

  /** `POST /_sandbox/webhooks/template-status` `{ name, language, status, reason?, wabaId? }`. */
  changeStatus(input: unknown): { id: string; name: string; language: string; status: TemplateStatus; notified: boolean } {
    const { body, found } = findNamedTemplate(this.state, input, 'template status change');
    const reason = optionalString(body, 'reason');
    const template = this.state.setTemplateStatus(found.stored.template.id, body.status);
    const at = this.state.now();
    const change = templateStatusChange({
      templateId: template.id,
      name: found.name,
      language: found.language,
      event: template.status,
      ...(reason === undefined ? {} : { reason }),
      at,
    });
    const notified = this.post(found.owner.account.wabaId, change, `template:${template.status}`, at);
    return { id: template.id, name: found.name, language: found.language, status: template.status, notified };
  }

  /**
   * `POST /_sandbox/webhooks/template-quality` `{ name, language, quality, wabaId? }`: the template's
   * `quality_score` becomes `quality` and `message_template_quality_update` reports the change.
   */
  changeQuality(input: unknown): { id: string; previousQuality: TemplateQualityScore; quality: TemplateQualityScore; notified: boolean } {
    const { body, found } = findNamedTemplate(this.state, input, 'template quality change');
    const quality = oneOf(body, 'quality', TEMPLATE_QUALITY_SCORES);
    const previous = found.stored.info.qualityScore ?? 'UNKNOWN';
    found.stored.info.qualityScore = quality;
    const at = this.state.now();
    const change: WebhookChange = {
      field: 'message_template_quality_update',
      value: { previous_quality_score: previous, new_quality_score: quality, ...templateFields(found) },
    };
    const notified = this.post(found.owner.account.wabaId, change, `template-quality:${quality}`, at);
    return { id: found.stored.template.id, previousQuality: previous, quality, notified };
  }

  /**
   * `POST /_sandbox/webhooks/template-category` `{ name, language, category, stage?, effectiveAt?, wabaId? }`.
   * `stage: "completed"` (the default) changes the category and sends `previous_category` and
   * `new_category`; `stage: "impending"` changes nothing yet and sends Meta's notice of a coming
   * change: `correct_category` (the coming one), `new_category` (the current one, as Meta names
   * it) and `category_update_timestamp` (`effectiveAt` in epoch seconds, default in 24 hours).
   */
  changeCategory(input: unknown): { id: string; stage: 'completed' | 'impending'; category: TemplateCategory; notified: boolean } {
    const { body, found } = findNamedTemplate(this.state, input, 'template category change');
    const category = oneOf(body, 'category', TEMPLATE_CATEGORIES);
    const stage = body.stage === undefined ? 'completed' : oneOf(body, 'stage', ['completed', 'impending'] as const);
    const at = this.state.now();
    const current = found.stored.template.category;
    let value: Record<string, unknown>;
    if (stage === 'impending') {
      const effectiveAt = body.effectiveAt ?? Math.floor(at / 1000) + 24 * 60 * 60;
      if (typeof effectiveAt !== 'number' || !Number.isInteger(effectiveAt) || effectiveAt < 0) fail('effectiveAt must be epoch seconds');
      value = { ...templateFields(found), correct_category: category, new_category: current, category_update_timestamp: effectiveAt };
    } else {
      found.stored.template.category = category;
      value = { ...templateFields(found), previous_category: current, new_category: category };
    }
    const notified = this.post(found.owner.account.wabaId, { field: 'template_category_update', value }, `template-category:${stage}`, at);
    return { id: found.stored.template.id, stage, category, notified };
  }
}
