import { localIndexOf } from '../../../local/gateway/local-index';
import { routes as allRoutes } from '../../../runtime-contract/all-routes';

describe('the local root page (GET /)', () => {
  it('points to the health check, the API reference, its document, the console and the sandbox', () => {
    const index = localIndexOf('http://127.0.0.1:3000', allRoutes, { sandbox: 'http://127.0.0.1:4010' });
    expect(index).toMatchObject({
      health: 'http://127.0.0.1:3000/prod/api/v2/broadcast/public/health',
      docs: 'http://127.0.0.1:3000/docs/',
      openApi: 'http://127.0.0.1:3000/openapi.json',
      console: 'http://127.0.0.1:3000/console/',
      sandbox: 'http://127.0.0.1:4010',
    });
    expect(index.surfaces.v1.url).toBe('http://127.0.0.1:3000/v1');
  });
});
