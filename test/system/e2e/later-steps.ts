/**
 * The workflow and webhook steps of the end-to-end flow. They run
 * once those endpoints are in the build (the flow skips them, naming the endpoints, until then).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestApp } from '../../support/app.ts';
import { text, type ui } from './ui.ts';

export interface Flow {
  secretKey: string;
  segmentId: string;
  campaignId: string;
}

interface StepContext {
  page: Page;
  u: ReturnType<typeof ui>;
  t: TestApp;
  flow: Flow;
}

async function addTopLevelStep(page: Page, label: string): Promise<void> {
  const add = page.locator('form[aria-label="Workflow"] > .step-list > .add-step');
  await add.getByLabel('New step').selectOption({ label });
  await add.getByRole('button', { name: 'Add step' }).click();
}

export async function workflowSteps({ page, u, t, flow }: StepContext): Promise<void> {
  await u.nav('Workflows');
  await page.getByText('No workflows yet').waitFor();
  await page.getByRole('link', { name: 'New workflow' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Onboarding');
  await page.getByLabel('Event name').fill('signed_up');
  await addTopLevelStep(page, 'Send email');
  await page
    .locator('li.step[data-type="SEND_EMAIL"]')
    .getByLabel('Template')
    .selectOption({ label: 'Welcome (transactional)' });
  await addTopLevelStep(page, 'Wait');
  await addTopLevelStep(page, 'If / else');
  const condition = page.locator('li.step[data-type="CONDITION"]');
  const thenBranch = condition.locator('.branch').first();
  await thenBranch.getByLabel('New step').selectOption({ label: 'Update contact' });
  await thenBranch.getByRole('button', { name: 'Add step' }).click();
  await thenBranch.getByLabel('Subscription').selectOption('true');
  expect(await page.locator('li.step').count()).toBe(4);
  await page.getByRole('button', { name: 'Create workflow' }).click();
  await page.waitForURL(/\/app\/workflows\/[0-9a-f-]{36}$/);
  await page.getByRole('button', { name: 'Enable' }).click();
  await page.locator('.page-header .badge', { hasText: 'ENABLED' }).waitFor();
  await u.checkPage('workflow');

  const track = await t.app.inject({
    method: 'POST',
    url: '/v1/track',
    headers: { authorization: `Bearer ${flow.secretKey}` },
    payload: { email: 'ada@acme.test', event: 'signed_up' },
  });
  expect(track.statusCode, track.body).toBe(200);
  const execution = page.locator('li.execution').first();
  await expect
    .poll(
      async () => {
        await page.reload();
        await page.locator('#executions-title').waitFor();
        return page.locator('li.execution').count();
      },
      { timeout: 30_000, interval: 1000 },
    )
    .toBe(1);
  await execution.locator('summary').click();
  await execution.locator('li[data-type="SEND_EMAIL"]').getByText('Send email').waitFor();
  expect(['RUNNING', 'WAITING', 'COMPLETED']).toContain(await text(execution.locator('.badge').first()));
  await u.screenshot('workflow');
}

export async function webhookSteps({ page, u }: StepContext): Promise<void> {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/herald`;
  try {
    await u.nav('Webhooks');
    await page.getByText('No webhook endpoints').waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('Description').fill('Our CRM');
    await page.getByRole('button', { name: 'Register endpoint' }).click();
    const secret = await text(page.getByTestId('webhook-secret'));
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('link', { name: `Open the endpoint ${url}` }).click();
    await u.heading('Our CRM').waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page
      .getByRole('table', { name: 'Deliveries' })
      .locator('.badge', { hasText: 'SUCCEEDED' })
      .waitFor({ timeout: 30_000 });
    expect(await text(page.getByRole('table', { name: 'Deliveries' }).locator('tbody tr').first())).toContain(
      'webhook.test',
    );
    const delivery = received.find((r) => r.body.includes('webhook.test'));
    expect(delivery?.headers['webhook-signature']).toMatch(/^v1,/);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Yes, make a new secret' }).click();
    await expect.poll(async () => text(page.getByTestId('webhook-secret'))).toMatch(/^whsec_/);
    expect(await text(page.getByTestId('webhook-secret'))).not.toBe(secret);
    await u.checkPage('webhook');
    await u.screenshot('webhook');
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}
