/**
 * WhatsApp Flows: create and list (`/{waba-id}/flows`), read, update metadata and delete
 * (`/{flow-id}`), upload and list the Flow JSON (`/{flow-id}/assets`), and the lifecycle
 * DRAFT → PUBLISHED → DEPRECATED (`/publish`, `/deprecate`).
 *
 * Errors follow Meta's Flow management table: 100 for a duplicate name or an unknown Flow JSON
 * version, 139001 when a flow can no longer be updated, 139002 for publishing problems, 139003
 * for deprecating a flow that is not published, 139004 for deleting one that is not a draft.
 * Problems inside the Flow JSON are not HTTP errors: they are reported in `validation_errors`
 * and block publishing, as at Meta.
 */
import type { FlowValidationError, StoredFlow } from '../account-state';
import { flowError, invalidParameter, newFbtraceId, requiredParameter, userFacingError } from '../graph-errors';
import { paginate, parseFields, renderWaba, selectFields, type GraphObject, type NodeDescription } from '../graph-listing';
import { jsonSyntaxErrorOffset } from '../json-syntax';
import type { GraphParams } from '../request-params';
import type { StoredAccount } from '../sandbox-state';
import { SANDBOX_APP } from './administration';
import { httpsUrl } from './phone-numbers';
import { ok, route, SUCCESS, type GraphDependencies, type GraphOutcome, type GraphRequest, type GraphRoute, type RouteContext } from './route-kit';

export const FLOW_CATEGORIES = ['SIGN_UP', 'SIGN_IN', 'APPOINTMENT_BOOKING', 'LEAD_GENERATION', 'CONTACT_US', 'CUSTOMER_SUPPORT', 'SURVEY', 'OTHER'] as const;
/** Flow JSON versions Meta accepts. */
const FLOW_JSON_VERSIONS = ['2.1', '3.0', '3.1', '4.0', '5.0', '5.1', '6.0', '6.1', '6.2', '6.3', '7.0', '7.1', '7.2', '7.3'];
/** Meta's limit on a Flow JSON file. */
export const FLOW_JSON_MAX_BYTES = 10 * 1024 * 1024;
export const FLOW_ASSET_PATH = '/whatsapp_business/flow_assets/';
const SIGNING_KIND = 'flow-json';
const ASSET_URL_LIFETIME_MS = 60 * 60_000;
const PREVIEW_LIFETIME_MS = 30 * 86_400_000;

const FLOW_NODE: NodeDescription = {
  type: 'WhatsAppFlow',
  fields: [
    'id',
    'name',
    'status',
    'categories',
    'validation_errors',
    'json_version',
    'data_api_version',
    'endpoint_uri',
    'preview',
    'whatsapp_business_account',
    'application',
    'health_status',
    'updated_at',
  ],
  defaultFields: ['id', 'name', 'status', 'categories', 'validation_errors', 'json_version', 'data_api_version', 'endpoint_uri'],
};
const LIST_FIELDS = ['id', 'name', 'status', 'categories', 'validation_errors'];

type WabaContext = RouteContext<{ kind: 'waba'; owner: StoredAccount }>;
type FlowContext = RouteContext<{ kind: 'flow'; owner: StoredAccount; flow: StoredFlow }>;

function graphTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

function renderFlow(context: WabaContext | FlowContext, flow: StoredFlow): GraphObject {
  const { owner } = context.node;
  const sendable = flow.status === 'DEPRECATED' ? 'BLOCKED' : 'AVAILABLE';
  const previewExpires = context.now() + PREVIEW_LIFETIME_MS;
  return {
    id: flow.id,
    name: flow.name,
    status: flow.status,
    categories: [...flow.categories],
    validation_errors: structuredClone(flow.validationErrors),
    ...(flow.jsonVersion === undefined ? {} : { json_version: flow.jsonVersion }),
    ...(flow.dataApiVersion === undefined ? {} : { data_api_version: flow.dataApiVersion }),
    ...(flow.endpointUri === undefined ? {} : { endpoint_uri: flow.endpointUri }),
    preview: {
      preview_url: `https://business.facebook.com/wa/manage/flows/${flow.id}/preview/?token=${context.deps.signer.sign('flow-preview', flow.id, previewExpires)}`,
      expires_at: graphTime(previewExpires),
    },
    whatsapp_business_account: selectFields(renderWaba(owner), ['id', 'name', 'currency', 'timezone_id', 'message_template_namespace']),
    application: { id: SANDBOX_APP.id, name: SANDBOX_APP.name, link: `https://www.facebook.com/games/?app_id=${SANDBOX_APP.id}` },
    health_status: {
      can_send_message: sendable,
      entities: [
        { entity_type: 'FLOW', id: flow.id, can_send_message: sendable },
        { entity_type: 'WABA', id: owner.account.wabaId, can_send_message: 'AVAILABLE' },
        { entity_type: 'BUSINESS', id: owner.account.businessId, can_send_message: 'AVAILABLE' },
        { entity_type: 'APP', id: SANDBOX_APP.id, can_send_message: 'AVAILABLE' },
      ],
    },
    updated_at: graphTime(flow.updatedAt),
  };
}

/** 1-based line and column of a character offset, for validation error positions. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 };
}

function schemaError(error: string, message: string, text: string, needle?: string): FlowValidationError {
  const offset = needle === undefined ? 0 : Math.max(0, text.indexOf(needle));
  const { line, column } = lineAndColumn(text, offset);
  const width = needle === undefined ? 1 : needle.length;
  return { error, error_type: 'JSON_SCHEMA_ERROR', message, line_start: line, line_end: line, column_start: column, column_end: column + width - 1 };
}

interface ParsedFlowJson {
  version?: string;
  dataApiVersion?: string;
  errors: FlowValidationError[];
}

/**
 * Structural checks of a Flow JSON (the parts every Flow needs): a known `version`, at least one
 * screen, each with an `id` and a `layout` with `children`, and a terminal screen to end on.
 * An unknown version is a request error (code 100); everything else is a validation error.
 */
export function validateFlowJson(text: string): ParsedFlowJson {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const { line, column } = lineAndColumn(text, jsonSyntaxErrorOffset(text) ?? 0);
    return {
      errors: [
        {
          error: 'INVALID_JSON',
          error_type: 'JSON_SYNTAX_ERROR',
          message: `The Flow JSON is not valid JSON: ${(error as Error).message}`,
          line_start: line,
          line_end: line,
          column_start: column,
          column_end: column,
        },
      ],
    };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { errors: [schemaError('INVALID_PROPERTY_TYPE', 'The Flow JSON must be an object at "$root".', text)] };
  }
  const root = json as Record<string, unknown>;
  const version = root.version;
  if (typeof version !== 'string' || version === '') {
    return { errors: [schemaError('MISSING_REQUIRED_PROPERTY', 'The property "version" is required at "$root".', text)] };
  }
  if (!FLOW_JSON_VERSIONS.includes(version)) {
    throw userFacingError(100, 'Invalid Flow JSON version', `Flow JSON version ${version} is not valid. Supported versions: ${FLOW_JSON_VERSIONS.join(', ')}.`);
  }
  const dataApiVersion = typeof root.data_api_version === 'string' ? root.data_api_version : undefined;
  const errors: FlowValidationError[] = [];
  const screens = root.screens;
  if (!Array.isArray(screens) || screens.length === 0) {
    errors.push(
      schemaError('MISSING_REQUIRED_PROPERTY', 'The property "screens" is required at "$root" and must list at least one screen.', text, '"screens"'),
    );
  } else {
    let terminal = false;
    screens.forEach((screen, index) => {
      const at = `$root/screens/${index}`;
      if (typeof screen !== 'object' || screen === null || Array.isArray(screen)) {
        errors.push(schemaError('INVALID_PROPERTY_TYPE', `Expected an object at "${at}".`, text, '"screens"'));
        return;
      }
      const { id, layout } = screen as Record<string, unknown>;
      if (typeof id !== 'string' || !/^[A-Za-z_]+$/.test(id)) {
        errors.push(schemaError('INVALID_PROPERTY_VALUE', `The property "id" at "${at}" must be a string of letters and underscores.`, text, '"screens"'));
      }
      const children = typeof layout === 'object' && layout !== null ? (layout as Record<string, unknown>).children : undefined;
      if (!Array.isArray(children)) {
        errors.push(
          schemaError(
            'MISSING_REQUIRED_PROPERTY',
            `The property "layout" with "children" is required at "${at}".`,
            text,
            typeof id === 'string' ? `"${id}"` : '"screens"',
          ),
        );
      }
      if ((screen as Record<string, unknown>).terminal === true) terminal = true;
    });
    if (!terminal) errors.push(schemaError('MISSING_TERMINAL_SCREEN', 'At least one screen must be terminal ("terminal": true).', text, '"screens"'));
  }
  return { version, ...(dataApiVersion === undefined ? {} : { dataApiVersion }), errors };
}

function applyFlowJson(flow: StoredFlow, text: string, now: number): FlowValidationError[] {
  const parsed = validateFlowJson(text);
  flow.flowJson = text;
  if (parsed.version === undefined) delete flow.jsonVersion;
  else flow.jsonVersion = parsed.version;
  if (parsed.dataApiVersion === undefined) delete flow.dataApiVersion;
  else flow.dataApiVersion = parsed.dataApiVersion;
  flow.validationErrors = parsed.errors;
  flow.updatedAt = now;
  return parsed.errors;
}

function categories(params: GraphParams, required: boolean): string[] | undefined {
  const values = required ? params.array('categories', { min: 1 }) : params.optionalArray('categories', { min: 1 });
  return values?.map((value, index) => {
    if (typeof value !== 'string' || !(FLOW_CATEGORIES as readonly string[]).includes(value)) {
      throw invalidParameter(`Param categories[${index}] must be one of {${FLOW_CATEGORIES.join(', ')}} - got ${JSON.stringify(value)}.`);
    }
    return value;
  });
}

function assertUniqueName(owner: StoredAccount, name: string, except?: StoredFlow): void {
  for (const flow of owner.flows.values()) {
    if (flow !== except && flow.name === name) {
      throw userFacingError(100, 'Flow name is not unique', `A Flow named "${name}" already exists in this WhatsApp Business Account. Use a different name.`);
    }
  }
}

function publishFlow(flow: StoredFlow, now: number): void {
  if (flow.status !== 'DRAFT')
    throw flowError(139002, 'Publishing Flow in invalid state', `Only DRAFT flows can be published; this flow is ${flow.status}. Clone it to change it.`);
  if (flow.flowJson === undefined)
    throw flowError(139002, 'Publishing Flow without Flow JSON', 'Upload the Flow JSON (POST /{flow-id}/assets) before publishing.');
  if (flow.validationErrors.length > 0)
    throw flowError(139002, 'Publishing Flow with validation errors', 'Resolve the validation errors of the Flow JSON before publishing.');
  if (flow.dataApiVersion !== undefined && flow.endpointUri === undefined) {
    throw flowError(
      139002,
      'Publishing without specifying endpoint_uri is forbidden',
      'This Flow exchanges data with an endpoint: set endpoint_uri before publishing.',
    );
  }
  flow.status = 'PUBLISHED';
  flow.updatedAt = now;
}

function createFlow(context: WabaContext) {
  const { state } = context.deps;
  const { owner } = context.node;
  const params = context.params();
  const name = params.string('name', { maxLength: 200 });
  const flowCategories = categories(params, true) ?? [];
  const flowJson = params.optionalString('flow_json', { maxLength: FLOW_JSON_MAX_BYTES });
  const publish = params.optionalBoolean('publish') ?? false;
  const cloneId = params.optionalString('clone_flow_id');
  const endpointUri = httpsUrl(params, 'endpoint_uri');
  if (cloneId !== undefined && flowJson !== undefined) throw invalidParameter('Param clone_flow_id cannot be combined with flow_json.');
  const source = cloneId === undefined ? undefined : owner.flows.get(cloneId);
  if (cloneId !== undefined && source === undefined) {
    throw userFacingError(100, 'Flow with specified ID does not exist', `There is no Flow ${cloneId} in this WhatsApp Business Account.`);
  }
  assertUniqueName(owner, name);

  const now = context.now();
  const flow: StoredFlow = {
    id: state.allocateId(),
    name,
    categories: flowCategories,
    status: 'DRAFT',
    validationErrors: [],
    ...(endpointUri === undefined ? {} : { endpointUri }),
    createdAt: now,
    updatedAt: now,
  };
  const json = flowJson ?? source?.flowJson;
  // Validate before storing anything: an unknown version rejects the whole request.
  const errors = json === undefined ? [] : applyFlowJson(flow, json, now);
  if (publish && json !== undefined) publishFlow(flow, now);
  state.addFlow(owner, flow);
  return ok({ id: flow.id, ...(json === undefined ? {} : { success: true, validation_errors: errors }) });
}

function updateFlow(context: FlowContext) {
  const { flow, owner } = context.node;
  const params = context.params();
  const name = params.optionalString('name', { maxLength: 200 });
  const flowCategories = categories(params, false);
  const endpointUri = httpsUrl(params, 'endpoint_uri');
  params.optionalString('application_id');
  if (name === undefined && flowCategories === undefined && endpointUri === undefined) {
    throw invalidParameter('At least one of name, categories, endpoint_uri is required.');
  }
  if (flow.status === 'DEPRECATED') throw flowError(139001, "Flow can't be updated", 'A deprecated Flow cannot be changed. Clone it to make a new one.');
  if (name !== undefined) assertUniqueName(owner, name, flow);
  if (name !== undefined) flow.name = name;
  if (flowCategories !== undefined) flow.categories = flowCategories;
  if (endpointUri !== undefined) flow.endpointUri = endpointUri;
  flow.updatedAt = context.now();
  return SUCCESS;
}

function uploadAsset(context: FlowContext) {
  const { flow } = context.node;
  const params = context.params();
  const name = params.string('name', { maxLength: 200 });
  if (!name.endsWith('.json')) throw invalidParameter('Param name must be the Flow JSON file name, e.g. flow.json.');
  params.enumValue('asset_type', ['FLOW_JSON'] as const);
  const file = params.file('file');
  if (file === undefined) throw requiredParameter('file');
  if (file.data.length > FLOW_JSON_MAX_BYTES) throw invalidParameter(`Param file must be at most ${FLOW_JSON_MAX_BYTES} bytes.`);
  if (flow.status !== 'DRAFT') {
    throw flowError(139001, "Flow can't be updated", `The Flow JSON of a ${flow.status} Flow cannot be changed. Clone the Flow and publish the clone instead.`);
  }
  const errors = applyFlowJson(flow, file.data.toString('utf8'), context.now());
  return ok({ success: true, validation_errors: errors });
}

function assetUrl(context: FlowContext, flow: StoredFlow): string {
  const expiresAt = context.now() + ASSET_URL_LIFETIME_MS;
  const url = new URL(FLOW_ASSET_PATH, context.origin);
  url.searchParams.set('fid', flow.id);
  url.searchParams.set('ext', String(expiresAt));
  url.searchParams.set('hash', context.deps.signer.sign(SIGNING_KIND, flow.id, expiresAt));
  return url.toString();
}

/** The uploaded Flow JSON behind `download_url` (a public signed URL, like Meta's CDN links). */
export function downloadFlowAsset(request: GraphRequest, _token: string | undefined, deps: GraphDependencies): GraphOutcome {
  const query = request.url.searchParams;
  const id = query.get('fid') ?? '';
  const node = deps.state.node(id);
  const valid = deps.signer.verify(SIGNING_KIND, id, Number(query.get('ext')), query.get('hash') ?? '', deps.state.now());
  if (!valid || node?.kind !== 'flow' || node.flow.flowJson === undefined) {
    return {
      kind: 'respond',
      status: 404,
      body: { error: { message: 'The Flow JSON URL has expired or is not valid.', type: 'OAuthException', code: 100, fbtrace_id: newFbtraceId() } },
    };
  }
  return { kind: 'bytes', status: 200, body: Buffer.from(node.flow.flowJson), headers: { 'content-type': 'application/json' } };
}

export const flowRoutes: GraphRoute[] = [
  route('waba', 'GET', 'flows', (context) => {
    const fields = context.query.get('fields') === null ? LIST_FIELDS : parseFields(context.query.get('fields'), FLOW_NODE);
    const items = [...context.node.owner.flows.values()].map((flow) => selectFields(renderFlow(context, flow), fields));
    return ok(paginate(items, context.query, context.request.url));
  }),
  route('waba', 'POST', 'flows', createFlow),

  route('flow', 'GET', null, (context) => ok(selectFields(renderFlow(context, context.node.flow), parseFields(context.query.get('fields'), FLOW_NODE)))),
  route('flow', 'POST', null, updateFlow),
  route('flow', 'DELETE', null, (context) => {
    const { flow, owner } = context.node;
    if (flow.status !== 'DRAFT')
      throw flowError(139004, "Can't delete published Flow", `Only DRAFT Flows can be deleted; this Flow is ${flow.status}. Deprecate it instead.`);
    context.deps.state.removeFlow(owner, flow);
    return SUCCESS;
  }),

  route('flow', 'GET', 'assets', (context) => {
    const { flow } = context.node;
    const items = flow.flowJson === undefined ? [] : [{ id: 'flow.json', name: 'flow.json', asset_type: 'FLOW_JSON', download_url: assetUrl(context, flow) }];
    const page = paginate(items, context.query, context.request.url);
    return ok({ ...page, data: page.data.map(({ id: _id, ...asset }) => asset) });
  }),
  route('flow', 'POST', 'assets', uploadAsset),
  route('flow', 'POST', 'publish', (context) => {
    publishFlow(context.node.flow, context.now());
    return SUCCESS;
  }),
  route('flow', 'POST', 'deprecate', (context) => {
    const { flow } = context.node;
    if (flow.status === 'DRAFT')
      throw flowError(139003, "Can't deprecate unpublished flow", 'Only PUBLISHED Flows can be deprecated. Delete the draft instead.');
    if (flow.status === 'DEPRECATED') throw flowError(139003, 'Flow is already deprecated', 'This Flow is already deprecated.');
    flow.status = 'DEPRECATED';
    flow.updatedAt = context.now();
    return SUCCESS;
  }),
];
