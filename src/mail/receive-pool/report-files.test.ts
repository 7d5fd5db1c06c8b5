import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseDmarcReport, parseTlsReport, readReports, ReportRefused } from './report-files.ts';

const report = (body: string, head = '<feedback>') =>
  `\uFEFF<?xml version="1.0"?>${head}<report_metadata><org_name>Org</org_name><report_id>1</report_id>` +
  '<date_range><begin>1764000000</begin><end>1764086399</end></date_range></report_metadata>' +
  `<policy_published><domain>Brand.Test.</domain><p>reject</p><pct>100</pct></policy_published>${body}</feedback>`;

const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return error instanceof ReportRefused ? error.reason : 'other';
  }
  return null;
};

describe('DMARC report files', () => {
  it('reads a report with a BOM, a namespace, upper-case results and a record without auth_results', () => {
    const xml = report(
      '<dmarc:record><dmarc:row><dmarc:source_ip>192.0.2.1</dmarc:source_ip><dmarc:count>3</dmarc:count>' +
        '<dmarc:policy_evaluated><dmarc:disposition>Reject</dmarc:disposition><dmarc:dkim>FAIL</dmarc:dkim>' +
        '<dmarc:spf>pass</dmarc:spf></dmarc:policy_evaluated></dmarc:row></dmarc:record>',
      '<feedback xmlns:dmarc="urn:ietf:params:xml:ns:dmarc-2.0">',
    ).replace('</feedback>', '</feedback>');
    const parsed = parseDmarcReport(xml);
    expect(parsed).toMatchObject({ domain: 'brand.test', messages: 3, passed: 3, records: 1, folded: false });
    expect(parsed.policy).toEqual({ p: 'reject', sp: null, adkim: null, aspf: null, pct: 100 });
    expect(parsed.rows).toEqual([
      { sourceIp: '192.0.2.1', count: 3, disposition: 'reject', dkim: 'fail', spf: 'pass', dkimOwn: false },
    ]);
  });

  it('counts a negative, fractional or huge count as nothing or the cap, never as a total that overflows', () => {
    const row = (count: string) =>
      `<record><row><source_ip>192.0.2.9</source_ip><count>${count}</count><policy_evaluated>` +
      '<disposition>none</disposition><dkim>pass</dkim><spf>fail</spf></policy_evaluated></row></record>';
    const parsed = parseDmarcReport(report(row('-5') + row('1.5') + row('99999999999999999999') + row('7')));
    expect(parsed.messages).toBe(7);
  });

  it('refuses what is not a report: no report id, a date out of range, no metadata, a DOCTYPE', () => {
    expect(refusal(() => parseDmarcReport('<feedback><report_metadata/></feedback>'))).toBe('not_a_report');
    expect(refusal(() => parseDmarcReport(report('').replace('1764000000', '-99999999999')))).toBe('not_a_report');
    expect(refusal(() => parseDmarcReport('<feedback><oops'))).toBe('not_a_report');
    expect(refusal(() => parseDmarcReport('<!doctype feedback><feedback/>'))).toBe('entities');
  });

  it('reads a TLS report and refuses one without policies', () => {
    const tls = parseTlsReport(
      JSON.stringify({
        'organization-name': 'X',
        'report-id': 'r',
        'date-range': { 'start-datetime': '2026-11-20T00:00:00Z', 'end-datetime': '2026-11-20T23:59:59Z' },
        policies: [{ policy: { 'policy-type': 'no-policy-found', 'policy-domain': 'brand.test' }, summary: {} }],
      }),
    );
    expect(tls).toMatchObject({ domains: ['brand.test'], successful: 0, failed: 0 });
    expect(refusal(() => parseTlsReport('{"organization-name":"X","report-id":"r","policies":[]}'))).toBe(
      'not_a_report',
    );
    expect(refusal(() => parseTlsReport('{"organization-name":'))).toBe('not_a_report');
  });

  it('answers a refusal as a value (it crosses the thread boundary), and no report as not_a_report', async () => {
    expect(await readReports([gzipSync('<!DOCTYPE x [<!ENTITY a "b">]><x/>')])).toMatchObject({
      ok: false,
      reason: 'entities',
    });
    expect(await readReports([Buffer.from('hello, no report here')])).toMatchObject({
      ok: false,
      reason: 'not_a_report',
    });
  });
});
