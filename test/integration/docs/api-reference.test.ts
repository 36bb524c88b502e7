import { routes } from '../../../runtime-contract/all-routes';
import { validateOpenApiDocument } from '../../support/openapi-validator';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

describe('the API reference served by the docs function', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime();
  }, 120_000);
  afterAll(() => runtime?.close());

  it('serves the document at /docs/openapi.json and at the local /openapi.json, public and valid', async () => {
    const served = await runtime.call('GET', '/docs/openapi.json');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/json');
    const operations = Object.values(served.body.paths as Record<string, object>).flatMap((item) => Object.keys(item));
    expect(operations).toHaveLength(routes.length);
    expect(validateOpenApiDocument(served.body)).toEqual(expect.objectContaining({ valid: true, version: '3.1' }));
    const short = await runtime.call('GET', '/openapi.json');
    expect(short.status).toBe(200);
    expect(short.body).toEqual(served.body);
  });

  it('renders the page from its own files (no CDN): the page, the renderer’s script and style', async () => {
    for (const path of ['/docs', '/docs/']) {
      const page = await runtime.call('GET', path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('src="/docs/assets/swagger-ui-bundle.js"');
      expect(page.body).toContain('href="/docs/assets/swagger-ui.css"');
      expect(page.body).toContain('"/docs/openapi.json"');
      expect(page.body).not.toMatch(/https?:\/\//);
    }
    const script = await runtime.call('GET', '/docs/assets/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(String(script.body)).toContain('SwaggerUIBundle');
    const style = await runtime.call('GET', '/docs/assets/swagger-ui.css');
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(style.headers.get('cache-control')).toBe('public, max-age=86400');
  });

  it('serves only the renderer’s files: anything else is the surface’s 404', async () => {
    for (const file of ['package.json', '..%2F..%2Fpackage.json', 'index.html']) {
      const answer = await runtime.call('GET', `/docs/assets/${file}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Route not found', requestId: expect.any(String) } });
    }
  });
});
