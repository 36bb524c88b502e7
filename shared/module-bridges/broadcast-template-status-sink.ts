/**
 * The delivery processor's TemplateStatusSink answered by the broadcast module's template states:
 * Meta's `message_template_status_update` events (and the quality and category updates) become
 * records the template catalog overlays on its cached list (shared/broadcast/template-catalog.ts). The processor has already checked that the
 * organization owns the business account; states are kept per business account.
 */
import type { TemplateStates } from '../broadcast/ports';
import { recordTemplateAttribute, recordTemplateState } from '../broadcast/template-catalog';
import type { TemplateAttributeUpdate, TemplateStatusSink, TemplateStatusUpdate } from '../delivery/ports';

export class BroadcastTemplateStatusSink implements TemplateStatusSink {
  constructor(private readonly templateStates: TemplateStates) {}

  async recordTemplateStatus(_organizationId: string, update: TemplateStatusUpdate): Promise<void> {
    await recordTemplateState({ templateStates: this.templateStates }, update.wabaId, {
      name: update.name,
      language: update.language,
      status: update.status,
      ...(update.reason !== undefined ? { reason: update.reason } : {}),
      templateId: update.templateId,
      at: update.at,
    });
  }

  async recordTemplateAttribute(_organizationId: string, update: TemplateAttributeUpdate): Promise<void> {
    await recordTemplateAttribute({ templateStates: this.templateStates }, update.wabaId, {
      name: update.name,
      language: update.language,
      templateId: update.templateId,
      kind: update.change,
      value: update.current,
      at: update.at,
    });
  }
}
