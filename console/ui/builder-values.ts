/**
 * The builder's value fields (docs/CONSOLE.md "New campaign"): one group per need of the template
 * (body variable, header, button), each mapped to a member's attribute with a fallback, or to one
 * text for everyone. The attribute names offered are those of the audience's members read.
 */
import type { Mapping, Need } from '../model/template-needs';
import { el } from './dom';

export interface ValueFields {
  root: HTMLElement;
  mappings(): Record<string, Mapping>;
  /** Offers these attribute names in every attribute field. */
  offer(attributes: readonly string[]): void;
}

/** A link (a media header, a tracked link's destination): one for everyone by default; text values come from an attribute. */
const isLink = (need: Need): boolean =>
  (need.place.in === 'header' && need.place.type !== 'text') || (need.place.in === 'button' && need.place.tracked === true);
const literalFirst = isLink;

function needGroup(need: Need, listId: string, changed: () => void): { root: HTMLElement; read(): Mapping } {
  const id = `need-${need.key}`;
  const source = el(
    'select',
    { id: `${id}-source` },
    el('option', { value: 'attribute', selected: !literalFirst(need) }, "A member's attribute"),
    el('option', { value: 'literal', selected: literalFirst(need) }, 'The same text for everyone'),
  );
  const attribute = el('input', { id: `${id}-attribute`, type: 'text', list: listId, autocomplete: 'off', spellcheck: 'false' });
  const fallback = el('input', { id: `${id}-fallback`, type: 'text', maxlength: need.maxLength ?? 1024, 'aria-describedby': `${id}-fallback-help` });
  const literal = el('input', { id: `${id}-literal`, type: isLink(need) ? 'url' : 'text', maxlength: need.maxLength ?? 2000 });
  const byAttribute = el(
    'div',
    { class: 'need-attribute' },
    el('div', { class: 'field' }, el('label', { for: attribute.id }, 'Attribute'), attribute),
    el('div', { class: 'field' }, el('label', { for: fallback.id }, 'Fallback'), fallback),
    el(
      'p',
      { id: `${id}-fallback-help`, class: 'help' },
      'Used when a member has no such attribute; without one, such a member is skipped (MISSING_ATTRIBUTE).',
    ),
  );
  const byLiteral = el('div', { class: 'field' }, el('label', { for: literal.id }, literalFirst(need) ? 'Link' : 'Text'), literal);
  const sync = () => {
    byAttribute.hidden = source.value !== 'attribute';
    byLiteral.hidden = source.value !== 'literal';
  };
  for (const input of [source, attribute, fallback, literal]) input.addEventListener('input', () => (sync(), changed()));
  source.addEventListener('change', () => (sync(), changed()));
  sync();
  const root = el(
    'fieldset',
    { class: 'need' },
    el('legend', {}, need.label, need.optional ? ' (optional)' : ''),
    el('div', { class: 'field' }, el('label', { for: source.id }, 'Value from'), source),
    byAttribute,
    byLiteral,
  );
  const read = (): Mapping =>
    source.value === 'attribute'
      ? { source: 'attribute', attribute: attribute.value.trim(), fallback: fallback.value }
      : { source: 'literal', value: literal.value };
  return { root, read };
}

export function createValueFields(needs: readonly Need[], changed: () => void): ValueFields {
  const listId = 'member-attributes';
  const list = el('datalist', { id: listId });
  const groups = needs.map((need) => ({ need, ...needGroup(need, listId, changed) }));
  const root = el(
    'div',
    { class: 'needs' },
    list,
    ...(groups.length === 0 ? [el('p', {}, 'This template needs no values.')] : groups.map((group) => group.root)),
  );
  return {
    root,
    mappings: () => Object.fromEntries(groups.map((group) => [group.need.key, group.read()])),
    offer: (attributes) => list.replaceChildren(...attributes.map((name) => el('option', { value: name }))),
  };
}
