/**
 * Signup forms in Chromium: a form built in the dashboard (fields added and reordered, the live preview following),
 * its embed code copied, its hosted page filled and sent at phone width (390 px), a proof-of-work form solved by
 * the widget Herald serves itself, and the embed snippet posted by a browser running no JavaScript at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrollWidth } from './browser.ts';
import { startSignedIn, type SignedIn } from './signed-in.ts';

const PHONE = { width: 390, height: 844 };

describe('signup forms in Chromium', () => {
  let s: SignedIn;

  beforeAll(async () => {
    s = await startSignedIn('signup.test');
  });
  afterAll(() => s?.close());

  const contactOf = async (email: string) => (await s.api('GET', `/contacts?email=${email}`)).items[0];

  it('builds a form with a live preview, copies its embed code, and takes a signup at phone width', async () => {
    const { page } = s;
    await page.goto(`${s.base}/app/forms`);
    await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
    await page.getByRole('button', { name: 'New form' }).click();
    const builder = page.getByRole('form', { name: 'Form builder' });
    const preview = page.getByRole('region', { name: 'Preview' });
    await builder.getByLabel('Name', { exact: true }).fill('Newsletter');
    await builder.getByRole('button', { name: 'Add field' }).click();
    const second = builder.getByRole('listitem', { name: 'Field 2' });
    await second.getByLabel('Label').fill('First name');
    await second.getByLabel('Key').fill('firstName');
    await preview.getByText('First name').waitFor();
    // Reordered: the preview follows.
    await second.getByRole('button', { name: 'Move up' }).click();
    const labels = async () => preview.locator('label').allInnerTexts();
    expect((await labels()).map((l) => l.trim())).toEqual(['First name', 'Email *']);
    await builder.getByRole('listitem', { name: 'Field 1' }).getByRole('button', { name: 'Move down' }).click();
    expect((await labels()).map((l) => l.trim())).toEqual(['Email *', 'First name']);
    await builder.getByLabel('Success message').fill('Thanks, see you soon!');
    await builder.getByLabel('Consent text').fill('I agree to get the newsletter.');
    await builder.getByRole('button', { name: 'Create form' }).click();
    await page.getByRole('heading', { level: 1, name: 'Newsletter' }).waitFor();

    await page.getByRole('button', { name: 'Copy embed code' }).click();
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(copied).toContain('<form class="herald-form" method="post" action="https://mail.herald.test/f/');
    const id = /\/f\/([0-9a-f-]{36})"/.exec(copied)![1]!;

    const phone = await s.b.context.newPage();
    await phone.setViewportSize(PHONE);
    await phone.goto(`${s.base}/f/${id}`);
    await phone.getByRole('heading', { level: 1, name: 'Newsletter' }).waitFor();
    expect(await scrollWidth(phone)).toBeLessThanOrEqual(PHONE.width);
    await phone.getByText('I agree to get the newsletter.').waitFor();
    await phone.getByLabel('Email *').fill('ada@signup.test');
    await phone.getByLabel('First name').fill('Ada');
    await phone.getByRole('button', { name: 'Subscribe' }).click();
    await phone.getByText('Thanks, see you soon!').waitFor();
    expect(await contactOf('ada@signup.test')).toMatchObject({ subscribed: true, data: { firstName: 'Ada' } });
    // Back on the dashboard, the form counts it.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Newsletter' }).waitFor();
    expect((await s.api('GET', `/forms/${id}`)).submissions).toBe(1);
    await phone.close();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('solves the proof of work in the browser with the widget Herald serves, then signs up', async () => {
    const form = await s.api('POST', '/forms', {
      name: 'Guarded',
      fields: [{ key: 'email', label: 'Email', type: 'email' }],
      captcha: 'pow',
    });
    const phone = await s.b.context.newPage();
    await phone.setViewportSize(PHONE);
    await phone.goto(`${s.base}/f/${form.id}`);
    await phone.getByLabel('Email *').fill('bo@signup.test');
    await phone.getByText("I'm not a robot").click();
    // The widget solved the challenge in its worker: it says so, and its field carries the solution.
    await phone.locator('altcha-widget').getByText('Verified').waitFor();
    await phone.getByRole('button', { name: 'Subscribe' }).click();
    await phone.getByRole('heading', { level: 1, name: 'Thank you' }).waitFor();
    expect(await contactOf('bo@signup.test')).toMatchObject({ subscribed: true });
    await phone.close();
    expect(s.b.unexpectedErrors()).toEqual([]);
  });

  it('posts the embed snippet from a page running no JavaScript', async () => {
    const form = await s.api('POST', '/forms', {
      name: 'Plain',
      fields: [{ key: 'email', label: 'Email', type: 'email' }],
    });
    const snippet = await s.api('GET', `/forms/${form.id}/embed`);
    const html = String(snippet.html).replaceAll('https://mail.herald.test', s.base);
    const page = await s.b.context.newPage();
    const cdp = await s.b.context.newCDPSession(page);
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
    const site = `<!doctype html><title>Someone's site</title><h1>Join us</h1>${html}`;
    await page.setContent(`${site}<script>document.title = 'scripts ran'</script>`);
    expect(await page.title()).toBe("Someone's site");
    await page.getByLabel('Email *').fill('cy@signup.test');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('heading', { level: 1, name: 'Thank you' }).waitFor();
    expect(await contactOf('cy@signup.test')).toMatchObject({ subscribed: true });
    await page.close();
  });
});
