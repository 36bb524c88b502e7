/**
 * The message as WhatsApp shows it, for three members of the audience (docs/CONSOLE.md "The
 * preview"): a chat bubble with the header, the body with the member's values, the footer and the
 * buttons. A media header is shown as a framed placeholder naming its link: the page's policy loads
 * images from this origin only, and a member's link must not be fetched by the reader's browser.
 */
import type { AudienceMemberRow } from '../model/api-types';
import { addressOf } from '../model/format';
import type { MessagePreview } from '../model/whatsapp-preview';
import { el } from './dom';

const MEDIA_WORDS = { image: 'Image', video: 'Video', document: 'Document' } as const;

function bubble(preview: Extract<MessagePreview, { sent: true }>): HTMLElement {
  const header = preview.header;
  return el(
    'div',
    { class: 'wa-bubble' },
    header?.kind === 'text' ? el('p', { class: 'wa-header-text' }, header.text) : null,
    header && header.kind !== 'text'
      ? el(
          'div',
          { class: 'wa-media', role: 'img', 'aria-label': `${MEDIA_WORDS[header.kind]} header: ${header.link}` },
          el('span', {}, MEDIA_WORDS[header.kind]),
          el('span', { class: 'wa-link' }, header.link),
        )
      : null,
    el('p', { class: 'wa-body' }, preview.body),
    preview.footer ? el('p', { class: 'wa-footer' }, preview.footer) : null,
    preview.buttons.length === 0
      ? null
      : el(
          'ul',
          { class: 'wa-buttons', 'aria-label': 'Buttons' },
          ...preview.buttons.map((button) => el('li', {}, button.label, button.value ? el('span', { class: 'wa-value' }, ` · ${button.value}`) : null)),
        ),
  );
}

/** One member's preview: who, and their message or why they are skipped. */
export function memberPreview(member: AudienceMemberRow, preview: MessagePreview): HTMLElement {
  return el(
    'figure',
    { class: 'wa-preview' },
    el('figcaption', {}, addressOf(member)),
    el('div', { class: 'wa-chat' }, preview.sent ? bubble(preview) : el('p', { class: 'notice notice-info' }, `This member would be ${preview.reason}.`)),
  );
}
