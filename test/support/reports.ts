/**
 * Real-world shaped reports for the feedback receiver: RFC 3464 DSNs, RFC 5965 ARF abuse reports and an
 * out-of-office reply, as receiving MTAs and mailbox providers send them.
 */
/** A DSN about one recipient, or about several (one per-recipient block each, same status). */
export function dsn(opts: {
  to: string;
  recipient: string | string[];
  status: string;
  action?: string;
  diagnostic?: string;
  id?: string;
}): string {
  const action = opts.action ?? (opts.status.startsWith('5') ? 'failed' : 'delayed');
  const recipients = [opts.recipient].flat();
  return [
    'From: Mail Delivery System <MAILER-DAEMON@mx.dest.test>',
    `To: ${opts.to}`,
    'Subject: Undelivered Mail Returned to Sender',
    'Date: Mon, 23 Nov 2026 10:00:00 +0000',
    `Message-ID: <${opts.id ?? 'dsn-1'}@mx.dest.test>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="BOUND"',
    '',
    '--BOUND',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    "This is the mail system at host mx.dest.test. I'm sorry to have to inform you " +
      'that your message could not be delivered.',
    '',
    '--BOUND',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.dest.test',
    'Arrival-Date: Mon, 23 Nov 2026 09:59:59 +0000',
    '',
    ...recipients.flatMap((recipient) => [
      `Final-Recipient: rfc822; ${recipient}`,
      `Action: ${action}`,
      `Status: ${opts.status}`,
      'Diagnostic-Code: smtp; ' +
        (opts.diagnostic ?? `${opts.status.startsWith('5') ? 550 : 451} ${opts.status} mailbox problem`),
      '',
    ]),
    '--BOUND',
    'Content-Type: text/rfc822-headers',
    '',
    'From: news@example.test',
    `To: ${recipients.join(', ')}`,
    'Subject: Hello',
    '',
    '--BOUND--',
    '',
  ].join('\r\n');
}

export function arf(opts: { to: string; recipient: string; feedbackType?: string }): string {
  return [
    'From: <staff@feedback.mailbox.test>',
    'Date: Mon, 23 Nov 2026 11:00:00 +0000',
    'Subject: FW: complaint',
    `To: ${opts.to}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report; boundary="ARFB"',
    '',
    '--ARFB',
    'Content-Type: text/plain; charset="US-ASCII"',
    '',
    'This is an email abuse report for an email message received from IP 192.0.2.1.',
    '',
    '--ARFB',
    'Content-Type: message/feedback-report',
    '',
    `Feedback-Type: ${opts.feedbackType ?? 'abuse'}`,
    'User-Agent: MailboxFBL/1.0',
    'Version: 1',
    `Original-Rcpt-To: <${opts.recipient}>`,
    'Arrival-Date: Mon, 23 Nov 2026 10:00:00 +0000',
    '',
    '--ARFB',
    'Content-Type: message/rfc822',
    'Content-Disposition: inline',
    '',
    'From: <news@example.test>',
    `To: <${opts.recipient}>`,
    'Subject: News',
    '',
    'Body',
    '--ARFB--',
    '',
  ].join('\r\n');
}

export function outOfOffice(to: string): string {
  return [
    `From: <person@dest.test>`,
    `To: ${to}`,
    'Subject: Out of office',
    'Date: Mon, 23 Nov 2026 11:00:00 +0000',
    'Content-Type: text/plain',
    '',
    'I am away until Monday.',
    '',
  ].join('\r\n');
}
