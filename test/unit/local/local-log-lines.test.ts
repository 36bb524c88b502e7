import { formatLocalLogLine, formatRequestLine, localLogSettings, powertoolsLevelOf } from '../../../local/local-log-lines';

const line = (fields: Record<string, unknown>) => JSON.stringify({ timestamp: '2026-03-01T09:00:00.123Z', service: 'whatsapp-broadcast-platform', ...fields });

describe("npm start's log lines", () => {
  it('by default shows job events, warnings and errors in one readable line, and leaves the per-request and per-batch INFO lines out', () => {
    expect(
      formatLocalLogLine('chunk-worker', line({ level: 'INFO', message: 'chunk processed', jobId: 'pub_1', chunkIndex: 0, sent: 1000, failed: 0 }), 'concise'),
    ).toBe('09:00:00.123  chunk-worker  chunk processed  jobId=pub_1 chunkIndex=0 sent=1000 failed=0');
    expect(formatLocalLogLine('delivery-events', line({ level: 'WARN', message: 'webhook batch skipped entries', code: 'X' }), 'concise')).toBe(
      '09:00:00.123  delivery-events  WARN webhook batch skipped entries  code=X',
    );
    expect(formatLocalLogLine('delivery-events', line({ level: 'INFO', message: 'webhook batch applied' }), 'concise')).toBeUndefined();
    expect(formatLocalLogLine('broadcast-send', line({ level: 'INFO', message: 'request served', statusCode: 202 }), 'concise')).toBeUndefined();
  });

  it('LOG_LEVEL=INFO shows every INFO line but the requests the gateway already printed; WARN only warnings and errors', () => {
    expect(formatLocalLogLine('delivery-events', line({ level: 'INFO', message: 'webhook batch applied' }), 'INFO')).toBe(
      '09:00:00.123  delivery-events  webhook batch applied',
    );
    expect(formatLocalLogLine('broadcast-send', line({ level: 'INFO', message: 'request served' }), 'INFO')).toBeUndefined();
    expect(formatLocalLogLine('chunk-worker', line({ level: 'INFO', message: 'chunk processed' }), 'WARN')).toBeUndefined();
    expect(formatLocalLogLine('chunk-worker', line({ level: 'ERROR', message: 'boom', error: { name: 'E' } }), 'WARN')).toBe(
      '09:00:00.123  chunk-worker  ERROR boom  error={"name":"E"}',
    );
  });

  it('prints a line that is not a log entry as it is', () => {
    expect(formatLocalLogLine('chunk-worker', '    at Object.<anonymous> (x.ts:1:1)', 'concise')).toBe('    at Object.<anonymous> (x.ts:1:1)');
  });

  it('reads LOG_FORMAT and LOG_LEVEL, the functions logging INFO for the concise view', () => {
    expect(localLogSettings({})).toEqual({ format: 'pretty', level: 'concise' });
    expect(localLogSettings({ LOG_FORMAT: 'JSON', LOG_LEVEL: 'warn' })).toEqual({ format: 'json', level: 'WARN' });
    expect(localLogSettings({ LOG_LEVEL: 'verbose' }).level).toBe('concise');
    expect(powertoolsLevelOf('concise')).toBe('INFO');
    expect(powertoolsLevelOf('ERROR')).toBe('ERROR');
  });

  it('gives each request one line', () => {
    expect(
      formatRequestLine(
        { group: 'broadcast-send', operation: 'sendTemplateBroadcast', statusCode: 202, durationMs: 45.2 },
        new Date('2026-03-01T09:00:00.123Z'),
      ),
    ).toBe('09:00:00.123  → sendTemplateBroadcast 202 (45 ms)');
  });
});
