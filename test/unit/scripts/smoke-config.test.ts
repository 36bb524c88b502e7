import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSmokeOptions, resolveSmokeConfig, SmokeConfigError } from '../../../scripts/smoke/smoke-config';
import { localStackSurfaceUrls, surfaceUrlOptionsOf, toLocalStackUrl } from '../../../scripts/smoke/localstack-outputs';

const emptyDirectory = () => mkdtempSync(join(tmpdir(), 'smoke-config-'));

const allOptions = {
  'broadcast-url': 'https://b.execute-api.eu-west-1.amazonaws.com/prod/api/v2/',
  'organization-url': 'https://o.execute-api.eu-west-1.amazonaws.com/v2/',
  'v1-url': 'https://v.execute-api.eu-west-1.amazonaws.com/v1/',
  'upstream-url': 'https://u.execute-api.eu-west-1.amazonaws.com/staging/api/v2/',
  'webhooks-url': 'https://w.execute-api.eu-west-1.amazonaws.com/hooks/',
  'docs-url': 'https://d.execute-api.eu-west-1.amazonaws.com/docs/',
  'clicks-url': 'https://c.execute-api.eu-west-1.amazonaws.com/l/',
  'api-key': 'bk_1',
  'org-token': 'ot_1',
  'access-token': 'at_1',
  'v1-api-key': 'v1_1',
  'from-phone-number': '15550100001',
  'phone-number-id': '120000000000001',
  'waba-id': '110000000000001',
  'template-name': 'order_update',
  'template-language': 'en_US',
  'template-category': 'UTILITY',
  'template-params': 'Ada,A-17',
  'employee-email': 'temp@example.com',
} as const;

describe('smoke configuration', () => {
  it('takes every value from options, one URL per surface (an AWS deployment), without a demo file', () => {
    const config = resolveSmokeConfig({ ...allOptions }, emptyDirectory(), 'run1');
    expect(config.urls).toEqual({
      broadcast: 'https://b.execute-api.eu-west-1.amazonaws.com/prod/api/v2',
      organization: 'https://o.execute-api.eu-west-1.amazonaws.com/v2',
      v1: 'https://v.execute-api.eu-west-1.amazonaws.com/v1',
      upstream: 'https://u.execute-api.eu-west-1.amazonaws.com/staging/api/v2',
      webhooks: 'https://w.execute-api.eu-west-1.amazonaws.com/hooks',
      docs: 'https://d.execute-api.eu-west-1.amazonaws.com/docs',
      clicks: 'https://c.execute-api.eu-west-1.amazonaws.com/l',
    });
    expect(config).toMatchObject({
      template: { name: 'order_update', parameters: ['Ada', 'A-17'] },
      recipientCount: 1001,
      countryCode: '91',
      webhookVerifyToken: undefined,
    });
  });

  it('names every missing value at once', () => {
    expect(() => resolveSmokeConfig({ 'base-url': 'http://127.0.0.1:3000' }, emptyDirectory())).toThrow(SmokeConfigError);
    expect(() => resolveSmokeConfig({ 'base-url': 'http://127.0.0.1:3000' }, emptyDirectory())).toThrow(/--api-key \(or SMOKE_API_KEY\).*--employee-email/);
    expect(() => resolveSmokeConfig({ ...allOptions, 'broadcast-url': undefined }, emptyDirectory())).toThrow(/--broadcast-url or --base-url/);
  });

  it('reads .local/demo.json by default; options override it', () => {
    const directory = emptyDirectory();
    const demoDirectory = join(directory, '.local');
    mkdirSync(demoDirectory);
    writeFileSync(
      join(demoDirectory, 'demo.json'),
      JSON.stringify({
        baseUrl: 'http://127.0.0.1:3000',
        apiKey: 'bk_demo',
        orgToken: 'ot',
        accessToken: 'at',
        v1ApiKey: 'v1',
        webhookVerifyToken: 'vt',
        wabaId: 'w',
        phoneNumbers: ['15550100001'],
        phoneNumberIds: ['p1'],
        employees: ['a@x', 'c@x'],
        templates: [
          { name: 'welcome_message', language: 'en_US', category: 'UTILITY', placeholders: 0, status: 'APPROVED' },
          { name: 'holiday_offer', language: 'en', category: 'MARKETING', placeholders: 1, status: 'PENDING' },
          { name: 'spring_sale', language: 'en', category: 'MARKETING', placeholders: 1, status: 'APPROVED' },
        ],
      }),
    );
    const config = resolveSmokeConfig({ 'api-key': 'bk_given', 'webhooks-url': 'https://hooks.example/hooks' }, directory);
    expect(config).toMatchObject({
      apiKey: 'bk_given',
      employeeEmail: 'c@x',
      webhookVerifyToken: 'vt',
      template: { name: 'spring_sale', language: 'en', category: 'MARKETING', parameters: ['Smoke1'] },
      urls: { broadcast: 'http://127.0.0.1:3000/prod/api/v2', webhooks: 'https://hooks.example/hooks' },
    });
  });

  it('reads options from argv first, then SMOKE_* variables; refuses unknown options and bad numbers', () => {
    expect(readSmokeOptions(['--api-key', 'bk_arg'], { SMOKE_API_KEY: 'bk_env', SMOKE_ORG_TOKEN: 'ot_env' })).toEqual({
      'api-key': 'bk_arg',
      'org-token': 'ot_env',
    });
    expect(() => readSmokeOptions(['--api-keys', 'x'], {})).toThrow(/Unknown option '--api-keys'/);
    expect(() => resolveSmokeConfig({ ...allOptions, recipients: '0' }, emptyDirectory())).toThrow(/--recipients must be a positive integer/);
  });
});

describe('LocalStack outputs', () => {
  it('rewrites execute-api URLs to LocalStack host names, keeping stage and path', () => {
    expect(toLocalStackUrl('https://abc123.execute-api.us-east-1.amazonaws.com/prod/api/v2', 'http://localhost.localstack.cloud:4566')).toBe(
      'http://abc123.execute-api.localhost.localstack.cloud:4566/prod/api/v2',
    );
    expect(() => toLocalStackUrl('https://example.com/prod', 'http://localhost:4566')).toThrow(/not an API Gateway URL/);
  });

  it('finds every surface output across the stacks of the outputs file, and names a missing one', () => {
    const api = {
      BroadcastApiUrl: 'https://b.execute-api.us-east-1.amazonaws.com/prod/api/v2',
      OrganizationApiUrl: 'https://o.execute-api.us-east-1.amazonaws.com/v2/',
      V1ApiUrl: 'https://v.execute-api.us-east-1.amazonaws.com/v1/',
      UpstreamApiUrl: 'https://u.execute-api.us-east-1.amazonaws.com/staging/api/v2',
      WebhooksApiUrl: 'https://w.execute-api.us-east-1.amazonaws.com/hooks/',
      DocsApiUrl: 'https://d.execute-api.us-east-1.amazonaws.com/docs/',
      ClicksApiUrl: 'https://c.execute-api.us-east-1.amazonaws.com/l/',
    };
    const urls = localStackSurfaceUrls({ Stateful: { TenancyTableName: 't' }, Api: api }, 'http://localhost.localstack.cloud:4566');
    expect(urls.webhooks).toBe('http://w.execute-api.localhost.localstack.cloud:4566/hooks/');
    expect(Object.keys(urls).sort()).toEqual(['broadcast', 'clicks', 'docs', 'organization', 'upstream', 'v1', 'webhooks']);
    expect(() => localStackSurfaceUrls({ Api: { ...api, V1ApiUrl: undefined as unknown as string } }, 'http://localhost:4566')).toThrow(/no V1ApiUrl output/);
  });

  it("gives a deployed stack's surface URLs as the smoke's --<surface>-url options (npm run smoke -- --stack)", () => {
    expect(surfaceUrlOptionsOf({ BroadcastApiUrl: 'https://b.execute-api.eu-west-1.amazonaws.com/prod/api/v2', TenancyTableName: 't' })).toEqual({
      'broadcast-url': 'https://b.execute-api.eu-west-1.amazonaws.com/prod/api/v2',
    });
  });
});
