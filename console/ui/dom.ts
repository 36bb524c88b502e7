/** A few DOM helpers: elements built from data (never from HTML text, so nothing the API says is parsed as markup). */

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/**
 * An element with attributes (`on<event>` functions become listeners; `true` sets an empty
 * attribute; `false`/undefined leave it out) and children (text is a text node).
 */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** Said by screen readers without moving focus (the page's live region). */
export function announce(text: string): void {
  const region = document.getElementById('announcer');
  if (region) region.textContent = text;
}

/** A data table with a caption and column headers (`scope="col"`); cells are text or nodes. */
export function dataTable(caption: string, headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<Child>>, attributes: Attributes = {}): HTMLElement {
  const table = el(
    'table',
    attributes,
    el('caption', {}, caption),
    el('thead', {}, el('tr', {}, ...headers.map((header) => el('th', { scope: 'col' }, header)))),
    el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...cells.map((cell) => el('td', {}, cell))))),
  );
  // Narrow screens scroll the table, not the page.
  return el('div', { class: 'table-scroll', role: 'region', 'aria-label': caption, tabindex: 0 }, table);
}

/** An error or notice box, read out when it appears. */
export const notice = (text: string, kind: 'error' | 'info' = 'error'): HTMLElement =>
  el('p', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);

/** A description list of facts (term, value), as the pages' headers show them. */
export const factList = (facts: ReadonlyArray<readonly [string, Child]>): HTMLDListElement =>
  el('dl', { class: 'facts' }, ...facts.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]));

/** A titled card section, labelled by its heading. */
export const section = (id: string, title: string, ...children: Child[]): HTMLElement =>
  el('section', { class: 'card', 'aria-labelledby': id }, el('h3', { id }, title), ...children);

/** A state as a badge (its class from the API's value), with the note that says more beside it. */
export const stateBadge = (state: string, label: string, note?: string): HTMLElement =>
  el('span', {}, el('span', { class: `badge badge-${state.toLowerCase()}` }, label), note ? el('span', { class: 'state-note' }, ` ${note}`) : null);

/** A progress bar with its percentage, labelled "<done> of <total> <what>". */
export const progressBar = (done: string, total: string, percent: number, what: string): HTMLElement =>
  el('span', { class: 'progress-cell' }, el('progress', { max: 100, value: percent, 'aria-label': `${done} of ${total} ${what}` }), ` ${percent}%`);
