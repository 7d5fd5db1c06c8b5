import { describe, expect, it } from 'vitest';
import { parseFieldBlocks, readFeedbackReport } from './reports.ts';
import { arf, dsn, outOfOffice } from '../../test/support/reports.ts';

describe('feedback reports', () => {
  it('reads per-recipient DSN blocks with folded lines', () => {
    const blocks = parseFieldBlocks(
      'Reporting-MTA: dns; a\n\nFinal-Recipient: rfc822; x@y\nDiagnostic-Code: smtp; ' +
        '550\n  5.1.1 unknown\nStatus: 5.1.1\n',
    );
    expect(blocks).toHaveLength(2);
    expect(blocks[1]!.get('diagnostic-code')).toBe('smtp; 550 5.1.1 unknown');
  });

  it('classifies bounces, delays, complaints and everything else', async () => {
    const to = 'bounces+x@bounces.example.test';
    expect(await readFeedbackReport(Buffer.from(dsn({ to, recipient: 'a@b.test', status: '5.1.1' })))).toMatchObject({
      kind: 'bounce',
      status: '5.1.1',
      recipient: 'a@b.test',
      action: 'failed',
    });
    expect(await readFeedbackReport(Buffer.from(dsn({ to, recipient: 'a@b.test', status: '4.4.7' })))).toMatchObject({
      kind: 'delay',
      status: '4.4.7',
    });
    expect(
      await readFeedbackReport(Buffer.from(dsn({ to, recipient: 'a@b.test', status: '2.0.0', action: 'delivered' }))),
    ).toMatchObject({ kind: 'other' });
    expect(await readFeedbackReport(Buffer.from(arf({ to, recipient: 'a@b.test' })))).toMatchObject({
      kind: 'complaint',
      feedbackType: 'abuse',
      recipient: 'a@b.test',
    });
    expect(
      await readFeedbackReport(Buffer.from(arf({ to, recipient: 'a@b.test', feedbackType: 'not-spam' }))),
    ).toMatchObject({ kind: 'other' });
    expect(await readFeedbackReport(Buffer.from(outOfOffice(to)))).toMatchObject({ kind: 'other' });
    expect(await readFeedbackReport(Buffer.from('\u0000\u0001 not mail at all'))).toMatchObject({ kind: 'other' });
  });
});
