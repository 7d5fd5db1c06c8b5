/** Doctor's pure parts: the --ntp option, the clock thresholds, the table, and errors told in one line. */
import { describe, expect, it } from 'vitest';
import { CLOCK_LIMITS, clockRow, parseNtpOption } from '../../src/doctor/clock.ts';
import { formatJson, formatTable } from '../../src/doctor/report.ts';
import { describeError, fail, isRefused, ok, warn } from '../../src/doctor/rows.ts';

describe('doctor', () => {
  it('reads --ntp as host[:port], an IPv6 address in brackets, or off', () => {
    expect(parseNtpOption(undefined)).toEqual({ host: 'pool.ntp.org', port: 123 });
    expect(parseNtpOption('time.example.com')).toEqual({ host: 'time.example.com', port: 123 });
    expect(parseNtpOption('127.0.0.1:1123')).toEqual({ host: '127.0.0.1', port: 1123 });
    expect(parseNtpOption('[::1]:1123')).toEqual({ host: '::1', port: 1123 });
    expect(parseNtpOption('off')).toBeNull();
    for (const bad of ['a b', 'host:0', 'host:99999', '::1', ''])
      expect(() => parseNtpOption(bad), bad).toThrow(/--ntp/);
  });

  it('passes a clock within a few seconds, warns past them, fails past a minute, either way', () => {
    expect(clockRow('clock', 20, 'x')).toMatchObject({ status: 'OK', detail: 'within 0.1 s of x' });
    expect(clockRow('clock', -2_000, 'x').status).toBe('OK');
    const slow = clockRow('clock', CLOCK_LIMITS.warnMs + 7_000, 'x');
    expect(slow).toMatchObject({ status: 'WARN', detail: "this machine's clock is 10 s behind x" });
    expect(slow.fix).toContain('chrony/systemd-timesyncd');
    expect(clockRow('clock', -(CLOCK_LIMITS.failMs + 1), 'x')).toMatchObject({ status: 'FAIL' });
    expect(clockRow('clock', -600_000, 'x').detail).toBe("this machine's clock is 600 s ahead of x");
  });

  it('prints a row per check, a fix line under each WARN and FAIL, and the count', () => {
    const rows = [
      ok('database', 'answers'),
      warn('public url', 'PUBLIC_URL is not set', 'Set PUBLIC_URL.'),
      fail('domain a.test', 'DKIM: no TXT record', 'Publish TXT one\nPublish TXT two'),
    ];
    expect(formatTable(rows).split('\n')).toEqual([
      'STATUS  CHECK          DETAIL',
      'OK      database       answers',
      'WARN    public url     PUBLIC_URL is not set',
      '                       fix: Set PUBLIC_URL.',
      'FAIL    domain a.test  DKIM: no TXT record',
      '                       fix: Publish TXT one',
      '                       fix: Publish TXT two',
      '',
      '1 OK, 1 WARN, 1 FAIL',
      '',
    ]);
    expect(JSON.parse(formatJson(rows))).toEqual(rows);
  });

  it('tells an error in one line: the refused address, a wrapped cause, a thing that is not an Error', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 5,
    });
    expect(describeError(refused)).toBe('connection refused at 127.0.0.1:5');
    expect(describeError(new AggregateError([refused], ''))).toBe('connection refused at 127.0.0.1:5');
    expect(describeError(new TypeError('fetch failed', { cause: refused }))).toBe('connection refused at 127.0.0.1:5');
    expect(describeError(new Error('Failed query: SELECT 1', { cause: new Error('boom\n  twice') }))).toBe(
      'boom twice',
    );
    expect(describeError({ name: 'ErrnoError', errno: 44 })).toBe('{"name":"ErrnoError","errno":44}');
    expect(isRefused(new AggregateError([new Error('x'), refused]))).toBe(true);
    expect(isRefused({ code: 'ESOCKET', originalCode: 'ECONNREFUSED' })).toBe(true);
    expect(isRefused(new Error('x'))).toBe(false);
  });
});
