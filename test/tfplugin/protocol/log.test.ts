import { createJsonLogger, hclogTimestamp, logLevelFromEnv } from '../../../src/tfplugin/protocol/log';

describe('createJsonLogger', () => {
  it('writes hclog JSON lines with level, message, module, timestamp and fields', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ module: 'provider.x', level: 'debug', write: (line) => lines.push(line) });
    logger.debug('hello', { resource: 'r', '@level': 'spoofed' });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toEqual({ '@level': 'debug', '@message': 'hello', '@module': 'provider.x', '@timestamp': expect.any(String), resource: 'r' });
    // go-plugin parses this exact layout: microseconds and Z.
    expect(entry['@timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('drops messages below the level and names child modules', () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ module: 'p', level: 'warn', write: (line) => lines.push(line) });
    logger.info('quiet');
    logger.named('grpc').error('loud');
    expect(lines.map((line) => JSON.parse(line)['@module'])).toEqual(['p.grpc']);
    expect(logger.enabled('debug')).toBe(false);
  });
});

describe('logLevelFromEnv', () => {
  it('prefers TF_LOG_PROVIDER over TF_LOG and defaults to warn', () => {
    expect(logLevelFromEnv({ TF_LOG: 'DEBUG', TF_LOG_PROVIDER: 'error' })).toBe('error');
    expect(logLevelFromEnv({ TF_LOG: 'TRACE' })).toBe('trace');
    expect(logLevelFromEnv({ TF_LOG: 'json' })).toBe('trace');
    expect(logLevelFromEnv({ TF_LOG: 'off' })).toBe('off');
    expect(logLevelFromEnv({})).toBe('warn');
  });
});

describe('hclogTimestamp', () => {
  it('formats with microseconds in UTC', () => {
    expect(hclogTimestamp(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678000Z');
  });
});
