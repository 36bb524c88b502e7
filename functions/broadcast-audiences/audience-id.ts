import { AudienceNotFoundError } from '../../shared/audiences/errors';
import { AUDIENCE_ID_PATTERN } from '../../shared/audiences/audience.schema';

/** The path's audience id; anything that is not an id's shape names no audience (404, no read). */
export function audienceIdOf(parameters: Readonly<Record<string, string>>): string {
  const id = parameters.audienceId ?? '';
  if (!AUDIENCE_ID_PATTERN.test(id)) throw new AudienceNotFoundError(id.slice(0, 80));
  return id;
}
