/**
 * An email's page in Chromium: its timeline from acceptance to the SMTP server's answer (the conversation shown on
 * demand), and Share: a link that opens the email as its recipient reads it, remote images held back until asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';

describe("an email's page, in Chromium", () => {
  let s: SignedIn;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    s = await startSignedIn('story.test', {
      env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: sink.url, SEND_RATE_PER_SECOND: '0' },
    });
  });
  afterAll(async () => {
    await s?.close();
    await sink?.close();
  });

  it('shows the timeline with the SMTP conversation, and shares a link that opens the email', async () => {
    const { page } = s;
    const sent = await s.api('POST', '/v1/send', {
      to: 'reader@dest.test',
      from: 'news@story.test',
      subject: 'Your receipt',
      body: '<p>Thank you for your order.</p><img src="https://images.example.com/logo.png" alt="Logo">',
    });
    const id = (sent.emails as { email: string }[])[0]!.email;
    await sink.waitForRecipient('reader@dest.test');
    await expect.poll(async () => (await s.api('GET', `/emails/${id}`)).status, { timeout: 20_000 }).toBe('SENT');

    await page.goto(`${s.base}/app/emails/${id}`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText('Delivery attempt').waitFor();
    for (const step of ['Accepted', 'Queued', 'Sent']) {
      expect(await timeline.getByText(step, { exact: true }).count(), step).toBe(1);
    }
    await timeline.getByText(/SMTP conversation/).click();
    const conversation = timeline.getByLabel('SMTP conversation');
    await conversation.waitFor();
    expect(await conversation.textContent()).toContain('C: RCPT TO:<reader@dest.test>');

    await page.getByRole('button', { name: 'Create share link' }).click();
    const link = page.getByTestId('share-url');
    await link.waitFor();
    const url = String(await link.getAttribute('href'));
    expect(url).toMatch(/\/v\/[\w-]+\.[\w-]+$/);
    // The link's page (on this server) shows the message; the remote image waits for "Show images".
    const view = await s.b.context.newPage();
    await view.goto(`${s.base}/v/${url.split('/v/')[1]}`);
    await view.getByText('Thank you for your order.').waitFor();
    const showImages = view.getByRole('link', { name: 'Show images' });
    await showImages.waitFor();
    await showImages.click();
    await view.waitForURL(/images=1/);
    expect(await view.getByRole('link', { name: 'Show images' }).count()).toBe(0);
    await view.close();
    expect(s.b.unexpectedErrors().filter((e) => !e.includes('images.example.com'))).toEqual([]);
  });
});
