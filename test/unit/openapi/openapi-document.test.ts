import { routes } from '../../../runtime-contract/all-routes';
import { publicPath, surfaces } from '../../../runtime-contract/route-manifest';
import { errorAnswers } from '../../../shared/http/error-responses';
import { buildOpenApiDocument, type OpenApiOperation } from '../../../shared/openapi/openapi-document';
import * as v from 'valibot';
import { requestExamples, requestSchemas } from '../../../shared/openapi/request-schemas';
import { checkAnswer } from '../../support/openapi-conformance';
import { validateOpenApiDocument } from '../../support/openapi-validator';

const document = buildOpenApiDocument();
const operations: Array<{ path: string; method: string; operation: OpenApiOperation }> = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
);
const operationOf = (method: string, path: string): OpenApiOperation => {
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`no operation ${method} ${path}`);
  return operation;
};
const jsonSchemaOf = (content: unknown): Record<string, any> => (content as Record<string, { schema: Record<string, any> }>)['application/json']!.schema;

describe('the generated OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document for an independent validator', () => {
    const result = validateOpenApiDocument(document);
    expect(result.errors).toBeNull();
    expect(result).toEqual(expect.objectContaining({ valid: true, version: '3.1' }));
  });

  it('has one operation per manifest route, at its public path, with a unique operationId', () => {
    expect(operations).toHaveLength(routes.length);
    for (const route of routes) expect(operationOf(route.method, publicPath(route))['x-endpoint-group']).toBe(route.group);
    expect(new Set(operations.map(({ operation }) => operation.operationId)).size).toBe(operations.length);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/staging/api/v2/upstream/phone-numbers/{phoneNumberId}/messages', '/docs/openapi.json', '/hooks/meta/whatsapp']),
    );
  });

  it('describes request bodies and parameters from the handlers’ valibot schemas', () => {
    const send = operationOf('POST', '/prod/api/v2/broadcast/public/send-template-broadcast');
    const body = jsonSchemaOf((send.requestBody as { content: unknown }).content);
    expect(body.required).toEqual(expect.arrayContaining(['broadcastName', 'fromPhoneNumber', 'templateName', 'templateLanguage', 'templateType', 'data']));
    expect(body.properties.data).toEqual(expect.objectContaining({ minItems: 1, maxItems: 10_000 }));
    expect(body.properties.templateType.enum).toEqual(['MARKETING', 'UTILITY']);
    expect(send.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]));
    expect(operationOf('GET', '/prod/api/v2/broadcast/public/templates').parameters).toEqual([
      expect.objectContaining({ name: 'phone_number', in: 'query', required: true, schema: expect.objectContaining({ pattern: '^\\d+$' }) }),
      expect.objectContaining({
        name: 'status',
        in: 'query',
        required: false,
        schema: expect.objectContaining({ enum: ['approved', 'all'], default: 'approved' }),
      }),
    ]);
    const freeform = jsonSchemaOf((operationOf('POST', '/prod/api/v2/broadcast/public/send-freeform').requestBody as { content: unknown }).content);
    expect(freeform.anyOf ?? freeform.oneOf).toBeDefined();
  });

  it('shows request examples the handlers’ own schemas accept', () => {
    expect(Object.keys(requestExamples).length).toBeGreaterThan(5);
    for (const [key, example] of Object.entries(requestExamples)) {
      const schema = requestSchemas[key]?.body;
      if (!schema) throw new Error(`example without a body schema: ${key}`);
      const result = v.safeParse(schema, example);
      expect({ key, issues: result.issues?.map((issue) => issue.message) }).toEqual({ key, issues: undefined });
    }
    const send = operationOf('POST', '/prod/api/v2/broadcast/public/send-template-broadcast');
    expect((send.requestBody as any).content['application/json'].example).toBe(requestExamples['broadcast:sendTemplateBroadcast']);
  });

  it('takes /upstream parameters and the Graph call from the upstream route table', () => {
    const analytics = operationOf('GET', '/staging/api/v2/upstream/wabas/{wabaId}/analytics/messaging');
    expect(analytics.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'wabaId', in: 'path', required: true })]));
    expect(analytics.description).toContain('Calls the Graph API');
    expect(analytics.security).toEqual([{ upstreamAccessToken: [] }]);
  });

  it('lists every status of the error table in each surface’s error body, with Retry-After on 429', () => {
    const responses = document.components.responses as Record<string, Record<string, any>>;
    const status = operationOf('GET', '/prod/api/v2/broadcast/public/status/{jobId}');
    for (const answer of errorAnswers) {
      expect(status.responses[String(answer.statusCode)]).toEqual({ $ref: `#/components/responses/broadcast${answer.statusCode}` });
      expect(String(responses[`broadcast${answer.statusCode}`]!.description)).toContain(answer.code);
    }
    expect(responses.broadcast429!.headers).toEqual({ 'Retry-After': expect.objectContaining({ required: true }) });
    expect(responses.upstream429!.headers).toEqual({ 'Retry-After': expect.objectContaining({ required: false }) });
    expect(jsonSchemaOf(responses.broadcast404!.content)).toEqual({ $ref: '#/components/schemas/broadcastError' });
    expect(jsonSchemaOf(responses.v1404!.content)).toEqual({ $ref: '#/components/schemas/v1Error' });
    expect(responses.v1404!.content['application/json'].example).toEqual({ success: false, error: { code: expect.any(String), message: expect.any(String) } });
    expect(Object.keys(document.components.schemas as object)).toEqual(expect.arrayContaining(Object.keys(surfaces).map((surface) => `${surface}Error`)));
  });

  it('states each route’s rate limit and auth from the manifest', () => {
    const send = operationOf('POST', '/prod/api/v2/broadcast/public/send-template-broadcast');
    expect(send['x-rate-limit']).toEqual(expect.objectContaining({ perMinute: 10, scope: 'key-and-sender' }));
    expect(send.security).toEqual([{ broadcastApiKey: [] }]);
    expect(operationOf('GET', '/v1/contacts')['x-rate-limit']).toEqual(
      expect.objectContaining({ perMinuteByPlan: { starter: 60, professional: 300, enterprise: 1000 } }),
    );
    expect(operationOf('GET', '/docs/').security).toEqual([]);
  });
});

describe('the conformance check of answers', () => {
  const json = new Headers({ 'content-type': 'application/json' });
  it('accepts a documented answer and names what breaks an undocumented one', () => {
    const ok = {
      status: true,
      status_code: 200,
      message: 'Phone numbers fetched successfully',
      data: [{ phone_number: '1', waba_id: '2', phone_number_id: '3' }],
    };
    expect(checkAnswer({ method: 'GET', path: '/prod/api/v2/broadcast/public/phone-numbers', status: 200, headers: json, body: ok })).toEqual([]);
    expect(
      checkAnswer({
        method: 'GET',
        path: '/prod/api/v2/broadcast/public/phone-numbers',
        status: 200,
        headers: json,
        body: { ...ok, data: [{ phone_number: 1 }] },
      }),
    ).toEqual([expect.stringContaining('/data/0')]);
    expect(checkAnswer({ method: 'GET', path: '/prod/api/v2/broadcast/public/health', status: 201, headers: json, body: {} })).toEqual([
      expect.stringContaining('status 201 is not documented'),
    ]);
    expect(
      checkAnswer({
        method: 'GET',
        path: '/v1/contacts?page=1',
        status: 429,
        headers: json,
        body: { success: false, error: { code: 'RATE_LIMITED', message: 'x' } },
      }),
    ).toEqual([expect.stringContaining('header Retry-After is required')]);
    expect(checkAnswer({ method: 'DELETE', path: '/v1/opt-outs/491701234567', status: 204, headers: new Headers(), body: '', rawText: '' })).toEqual([]);
    expect(checkAnswer({ method: 'GET', path: '/nowhere', status: 404, headers: json, body: {} })).toEqual([]);
  });
});
