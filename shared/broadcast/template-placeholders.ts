import type { UpstreamTemplate } from '../sending/ports';

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/**
 * How many values a send needs: the highest numbered placeholder of the BODY component.
 * Meta numbers body placeholders {{1}}..{{n}} without gaps, and the broadcast API sends body
 * parameters only (header variables are not part of the contract).
 */
export function bodyPlaceholderCount(template: Pick<UpstreamTemplate, 'components'>): number {
  const body = template.components.find((component) => component.type?.toUpperCase() === 'BODY');
  let highest = 0;
  for (const match of (body?.text ?? '').matchAll(PLACEHOLDER)) highest = Math.max(highest, Number(match[1]));
  return highest;
}
