/**
 * `POST /{waba-id}`: the account settings Graph lets a business change — `name` and
 * `timezone_id` (Meta's YAML) and `disable_marketing_messages_on_cloud_api` (Meta's Marketing
 * Messages pages; read back with `GET /{waba-id}?fields=…`). `GET /{waba-id}` is analytics.ts's,
 * whose fields include the analytics ones.
 */
import { invalidParameter } from '../graph-errors';
import type { StoredAccount } from '../sandbox-state';
import { route, SUCCESS, type GraphRoute, type RouteContext } from './route-kit';

type WabaContext = RouteContext<{ kind: 'waba'; owner: StoredAccount }>;

function updateBusinessAccount(context: WabaContext) {
  const params = context.params();
  const name = params.optionalString('name', { minLength: 1, maxLength: 100 });
  const timezoneId = params.optionalString('timezone_id', { pattern: /^\d+$/, patternHint: 'must be a numeric timezone id' });
  const disable = params.optionalBoolean('disable_marketing_messages_on_cloud_api');
  if (name === undefined && timezoneId === undefined && disable === undefined) {
    throw invalidParameter('At least one of name, timezone_id, disable_marketing_messages_on_cloud_api is required.');
  }
  const { owner } = context.node;
  // Graph-made changes: registering the account again starts it from what was registered.
  if (name !== undefined) owner.account.name = name;
  if (timezoneId !== undefined) owner.configuration.timezoneId = timezoneId;
  if (disable !== undefined) owner.marketing.disableOnCloudApi = disable;
  return SUCCESS;
}

export const businessAccountRoutes: GraphRoute[] = [route('waba', 'POST', null, updateBusinessAccount)];
