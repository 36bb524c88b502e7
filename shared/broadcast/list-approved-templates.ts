import { requireOperationInScope, requireSenderInScope, type ScopedCaller } from './key-scope';
import type { SenderDirectory } from './ports';
import type { TemplateCatalog } from './template-catalog';
import { requirementsOf, type TemplateRequirements } from '../templates/template-requirements';
import { maxPriceOf, type MaxPrice } from './template-max-price';

export interface TemplateView {
  name: string;
  status: string;
  category: string;
  language: string;
  /** Meta's quality score (GREEN, YELLOW, RED, UNKNOWN), from the list or a newer quality event; absent when Meta gives none. */
  quality?: string;
  components: Array<{ type: string; text?: string }>;
  /** What a send must carry: header kind, body placeholders, buttons that take a value, carousel, offer (docs/BROADCAST.md "Rich templates"). */
  parameters: TemplateRequirements;
  /** The template's max price (template-max-price.ts): sent through the Marketing Messages API only; absent for most templates. */
  maxPrice?: MaxPrice;
  /** Why Meta rejected it (`INVALID_FORMAT`, `ABUSIVE_CONTENT`, …): only in the `status=all` list, only for a REJECTED template that has one. */
  rejectedReason?: string;
}

/** Which templates a list gives: the contract's APPROVED ones (the default), or every status (the console's templates screen). */
export type TemplateListScope = 'approved' | 'all';

/**
 * The sender's APPROVED templates, in the contract's shape (components keep type and text), each
 * with what a send of it needs; with `scope: 'all'` every template whatever its status, a REJECTED
 * one with Meta's `rejectedReason` (docs/BROADCAST.md "Templates of every status").
 *
 * @example
 * await listApprovedTemplates({ senders, templates }, caller, '15550001111'); // APPROVED only
 * await listApprovedTemplates({ senders, templates }, caller, '15550001111', 'all'); // PENDING, REJECTED, … too
 */
export async function listApprovedTemplates(
  dependencies: { senders: SenderDirectory; templates: TemplateCatalog },
  caller: ScopedCaller,
  phoneNumber: string,
  scope: TemplateListScope = 'approved',
): Promise<TemplateView[]> {
  requireOperationInScope(caller, 'list-templates');
  requireSenderInScope(caller, phoneNumber);
  const sender = await dependencies.senders.resolveSender(caller.organizationId, phoneNumber);
  const templates = await dependencies.templates.templatesOf(sender.wabaId, sender.accessToken);
  return templates
    .filter((template) => scope === 'all' || template.status === 'APPROVED')
    .map((template) => ({
      name: template.name,
      status: template.status,
      category: template.category,
      language: template.language,
      ...(template.quality_score?.score === undefined ? {} : { quality: template.quality_score.score }),
      components: template.components.map((component) => ({
        type: component.type,
        ...(component.text === undefined ? {} : { text: component.text }),
      })),
      parameters: requirementsOf(template),
      ...maxPriceFieldOf(template),
      ...(scope === 'all' ? rejectedReasonFieldOf(template) : {}),
    }));
}

function maxPriceFieldOf(template: Parameters<typeof maxPriceOf>[0]): { maxPrice?: MaxPrice } {
  const maxPrice = maxPriceOf(template);
  return maxPrice === undefined ? {} : { maxPrice };
}

function rejectedReasonFieldOf(template: { status: string; rejected_reason?: string }): { rejectedReason?: string } {
  const reason = template.rejected_reason;
  return template.status === 'REJECTED' && reason !== undefined && reason !== '' && reason !== 'NONE' ? { rejectedReason: reason } : {};
}
