/**
 * A member's message as WhatsApp shows it (docs/CONSOLE.md "The preview"): the header (the media
 * link or the header text with its value), the body with the values filled, the footer and the
 * buttons. The values are filled by the server's own rule, `renderMemberSend` of
 * shared/campaigns/campaign-values.ts (bundled into the console), so a member the preview shows
 * skipped is skipped by the campaign, and a value the preview shows is the value sent.
 */
import { renderMemberSend, type CampaignValues } from '../../shared/campaigns/campaign-values';
import type { TemplateContent, TemplateParameters } from '../../shared/templates/template-content.schema';
import type { TemplateView } from './api-types';

export type PreviewHeader = { kind: 'image' | 'video' | 'document'; link: string } | { kind: 'text'; text: string };

export interface PreviewButton {
  /** How the button reads: its kind (the template list gives no button captions). */
  label: string;
  /** The value the member's send carries (a URL suffix, a payload, a code), when it has one. */
  value?: string;
}

export type MessagePreview = { sent: true; header?: PreviewHeader; body: string; footer?: string; buttons: PreviewButton[] } | { sent: false; reason: string };

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** A template text with each `{{1}}` / `{{name}}` replaced by its value (an unknown one stays as written). */
export function fillText(text: string, parameters: TemplateParameters): string {
  return text.replace(VARIABLE, (whole, token: string) => {
    const value = Array.isArray(parameters) ? (/^\d+$/.test(token) ? parameters[Number(token) - 1] : undefined) : (parameters as Record<string, string>)[token];
    return typeof value === 'string' ? value : whole;
  });
}

const componentText = (template: Pick<TemplateView, 'components'>, type: string): string | undefined =>
  template.components.find((component) => component.type.toUpperCase() === type)?.text;

function headerOf(template: Pick<TemplateView, 'components'>, content: TemplateContent | undefined): PreviewHeader | undefined {
  const header = content?.header;
  if (header && (header.type === 'image' || header.type === 'video' || header.type === 'document'))
    return { kind: header.type, link: 'link' in header && header.link ? header.link : `media ${'mediaId' in header ? header.mediaId : ''}` };
  const text = componentText(template, 'HEADER');
  if (text === undefined) return undefined;
  return { kind: 'text', text: header?.type === 'text' ? text.replace(VARIABLE, header.text) : text };
}

const BUTTON_WORDS: Record<string, string> = { URL: 'Link', QUICK_REPLY: 'Quick reply', COPY_CODE: 'Copy code', PHONE_NUMBER: 'Call', FLOW: 'Open form' };

/** A button value's text: a URL suffix, a tracked link's destination (issue 38), a coupon code or a payload. */
function buttonsOf(template: Pick<TemplateView, 'parameters'>, content: TemplateContent | undefined): PreviewButton[] {
  return (template.parameters.buttons ?? []).map((button) => {
    const given = content?.buttons?.find((value) => value.index === button.index);
    const value = given ? (given.type === 'url' ? (given.trackedUrl ?? given.text) : given.type === 'copy_code' ? given.couponCode : given.payload) : undefined;
    return { label: BUTTON_WORDS[button.type] ?? button.type, ...(value === undefined ? {} : { value }) };
  });
}

/**
 * The message one member would get, or why they would be skipped.
 *
 * @example
 * previewFor(orderShipped, { templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'A-1'] }, { attributes: {} });
 * // { sent: true, body: 'Hi there, your order A-1 is on its way.', buttons: [{ label: 'Link' }], header: … }
 */
export function previewFor(
  template: Pick<TemplateView, 'components' | 'parameters'>,
  values: CampaignValues,
  member: { attributes: Record<string, string | number | boolean> },
): MessagePreview {
  const send = renderMemberSend(values, member);
  if ('skipped' in send) {
    return {
      sent: false,
      reason:
        send.skipped === 'MISSING_ATTRIBUTE'
          ? `skipped: no ${send.attribute} and no fallback (MISSING_ATTRIBUTE)`
          : `skipped: ${send.field} ${send.rule} (INVALID_PARAMETER)`,
    };
  }
  const header = headerOf(template, send.content);
  const footer = componentText(template, 'FOOTER');
  return {
    sent: true,
    ...(header ? { header } : {}),
    body: fillText(componentText(template, 'BODY') ?? '', send.parameters),
    ...(footer === undefined ? {} : { footer }),
    buttons: buttonsOf(template, send.content),
  };
}

/**
 * The attribute names of the members read (the builder offers them), sorted.
 *
 * @example
 * attributeNamesOf([{ attributes: { first_name: 'Ada' } }, { attributes: { order_id: 'A-1' } }]); // ['first_name', 'order_id']
 */
export const attributeNamesOf = (members: ReadonlyArray<{ attributes: Record<string, unknown> }>): string[] =>
  [...new Set(members.flatMap((member) => Object.keys(member.attributes)))].sort();
