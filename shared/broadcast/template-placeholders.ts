import type { UpstreamTemplate } from '../sending/ports';
import { positionalCount, requirementsOf } from '../templates/template-requirements';

/**
 * How many values a send needs: the highest numbered placeholder of the BODY component (0 for a
 * named template). The earlier send operations fill body placeholders only; a broadcast reads the
 * template's whole requirements (shared/templates/template-requirements.ts).
 */
export function bodyPlaceholderCount(template: Pick<UpstreamTemplate, 'components'>): number {
  return positionalCount(requirementsOf(template).body);
}
