/**
 * Workflow executions that can be read, in Chromium: the contact's address linked to the contact, the branch an
 * If / else took, a link to the email a Send email step made, and times to the second with the full timestamp
 * in a title.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';
import { text } from './ui.ts';

describe('workflow executions in Chromium', () => {
  let s: SignedIn;

  beforeAll(async () => {
    s = await startSignedIn('flows.test');
  });
  afterAll(() => s?.close());

  it('names the contact, the branch taken and the email sent', async () => {
    const template = await s.api('POST', '/templates', {
      name: 'Welcome',
      type: 'TRANSACTIONAL',
      subject: 'Welcome aboard',
      body: '<p>Hi</p>',
      from: 'hi@flows.test',
    });
    const w = await s.api('POST', '/workflows', {
      name: 'Onboarding',
      enabled: true,
      trigger: { type: 'EVENT', event: 'joined' },
      steps: [
        {
          type: 'CONDITION',
          if: { field: 'data.plan', operator: 'equals', value: 'pro' },
          then: [{ type: 'SEND_EMAIL', templateId: template.id }],
          else: [],
        },
      ],
    });
    const contact = await s.api('POST', '/contacts', { email: 'pro@bücher.example', data: { plan: 'pro' } });
    await s.api('POST', '/v1/track', { email: 'pro@bücher.example', event: 'joined' });
    await until(
      async () => (await s.api('GET', `/workflows/${w.id}/executions`)).items[0]?.status === 'COMPLETED',
      'execution COMPLETED',
      30_000,
    );

    const { page } = s;
    await page.goto(`${s.base}/app/workflows/${w.id}`);
    const execution = page.locator('li.execution').first();
    await execution.waitFor();
    const contactLink = execution.locator('summary').getByRole('link', { name: 'pro@bücher.example' });
    expect(await contactLink.getAttribute('href')).toBe(`/app/contacts/${contact.id}`);
    await execution.locator('summary').click();

    const condition = execution.locator('li[data-type="CONDITION"]');
    expect(await text(condition.locator('.branch'))).toBe('yes: the condition matched');
    const stamp = condition.locator('time');
    const at = String(await stamp.getAttribute('datetime'));
    expect(await text(stamp)).toMatch(/\d{1,2}:\d{2}:\d{2}/);
    expect(await stamp.getAttribute('title')).toContain(at);

    await execution.locator('li[data-type="SEND_EMAIL"]').getByRole('link', { name: 'the email it sent' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome aboard' }).waitFor();
    expect(page.url()).toMatch(/\/app\/emails\/[0-9a-f-]{36}$/);
    expect(s.b.unexpectedErrors()).toEqual([]);
  });
});
