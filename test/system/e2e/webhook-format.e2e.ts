/**
 * A webhook endpoint's format in Chromium: the webhooks page registers a `resend` endpoint (offering Resend's event
 * names), shows its format as a badge in the list and on its page, and its test event arrives with svix-* headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

describe('webhook formats in Chromium', () => {
  let s: SignedIn;
  let hook: WebhookReceiver;

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    s = await startSignedIn('format.test', { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(async () => {
    await s?.close();
    await hook?.close();
  });

  it("registers a resend endpoint with Resend's names, shows its badge, signs its test event as Resend", async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/webhooks`);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill(hook.url);
    // Herald's names first; choosing the resend format offers Resend's.
    await page.getByRole('checkbox', { name: 'email.queued' }).waitFor();
    await page.getByLabel('Format').selectOption('resend');
    await page.getByRole('checkbox', { name: 'Every event' }).uncheck();
    await page.getByRole('checkbox', { name: 'email.delivery_delayed' }).check();
    expect(await page.getByRole('checkbox', { name: 'email.queued' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Register endpoint' }).click();
    expect(await text(page.getByTestId('webhook-secret'))).toMatch(/^whsec_/);

    const [endpoint] = (await s.api('GET', '/webhooks')).items;
    expect(endpoint).toMatchObject({ format: 'resend', events: ['email.delivery_delayed'], url: hook.url });
    const row = page.locator('table.data-table tbody tr', { hasText: hook.url });
    expect(await text(row.locator('.badge.format-resend'))).toBe('Resend');

    await page.getByRole('link', { name: `Open the endpoint ${hook.url}` }).click();
    expect(await text(page.locator('.page-header .badge.format-resend'))).toBe('Resend');
    // The form keeps the format's names: saving changes nothing of them.
    expect(await page.getByRole('checkbox', { name: 'email.delivery_delayed' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [received] = await hook.waitFor(1);
    expect(received!.headers['svix-id']).toEqual(expect.any(String));
    expect(received!.headers['svix-signature']).toMatch(/^v1,/);
    expect(received!.headers['webhook-id']).toBeUndefined();
    expect(JSON.parse(received!.body)).toMatchObject({ type: 'webhook.test', created_at: expect.any(String) });
  });
});
