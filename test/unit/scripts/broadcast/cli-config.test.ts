import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConnection } from '../../../../scripts/broadcast/cli-config';
import { CliUsageError } from '../../../../scripts/broadcast/errors';

describe('resolveConnection', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'broadcast-cli-'));
  mkdirSync(join(cwd, '.local'));
  writeFileSync(join(cwd, '.local', 'demo.json'), JSON.stringify({ baseUrl: 'http://localhost:3000', apiKey: 'bk_demo' }));
  const empty = mkdtempSync(join(tmpdir(), 'broadcast-cli-empty-'));

  it('needs no flag locally: the demo file gives the gateway, under the broadcast stage and base path', () => {
    expect(resolveConnection({}, {}, cwd)).toEqual({ baseUrl: 'http://localhost:3000/prod/api/v2', apiKey: 'bk_demo', source: 'demo file' });
  });

  it('takes options over environment variables over the demo file', () => {
    const environment = { BROADCAST_BASE_URL: 'https://env.example/prod/api/v2/', BROADCAST_API_KEY: 'bk_env' };
    expect(resolveConnection({}, environment, cwd)).toEqual({ baseUrl: 'https://env.example/prod/api/v2', apiKey: 'bk_env', source: 'environment' });
    expect(resolveConnection({ 'base-url': 'https://opt.example/prod/api/v2', 'api-key': 'bk_opt' }, environment, cwd)).toEqual({
      baseUrl: 'https://opt.example/prod/api/v2',
      apiKey: 'bk_opt',
      source: 'options',
    });
  });

  it('names what is missing when there is no demo file', () => {
    expect(() => resolveConnection({ 'base-url': 'https://x.example/prod/api/v2' }, {}, empty)).toThrow(CliUsageError);
    expect(() => resolveConnection({}, {}, empty)).toThrow(
      /^missing --base-url \(or BROADCAST_BASE_URL\) and --api-key \(or BROADCAST_API_KEY\); locally, start the service with `npm start` first/,
    );
  });
});
