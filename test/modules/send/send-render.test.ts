// Rendering on the request path, over real HTTP: /v1/send renders before its transaction, off the event
// loop, within a per-request budget; the recipient's `to.name` is `{{ name }}`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

// About 125k loop iterations a field: a few hundredths of a field's own time limit (500 ms, absolute), yet
// 50 recipients need several times the 300 ms budget this app is given. Load slows both sides of that ratio
// alike, so only the first margin matters, and it is wide.
const LOOPS = '{% for a in (1..50) %}{% for b in (1..50) %}{% for c in (1..50) %}{% endfor %}{% endfor %}{% endfor %}';
const RECIPIENTS = Array.from({ length: 50 }, (_, i) => `r${i}@dest.test`);

describe('POST /v1/send renders within a per-request budget, off the event loop', () => {
  let m: MailFixture;
  let base: string;

  beforeAll(async () => {
    m = await startMailFixture({ worker: false, env: { RENDER_BUDGET_MS: '300', RENDER_BUDGET_CHARS: '200000' } });
    await m.t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(m.t.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => m.close());

  async function call(method: string, path: string, auth: { authorization?: string }, body?: unknown) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  function expectBudgetRefusal(res: { status: number; body: unknown }, field: string) {
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(422);
    const error = errorShape.parse(res.body).error;
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.errors).toEqual([expect.objectContaining({ field, code: 'render_budget' })]);
  }

  async function expectNothingStored(auth: { authorization: string }) {
    expect((await call('GET', '/emails', auth)).body.data).toMatchObject({ items: [], total: 0 });
    expect((await call('GET', '/contacts', auth)).body.data).toMatchObject({ items: [], total: 0 });
  }

  it(
    'refuses a heavy template for many recipients with a 422, answers other requests ' +
      'meanwhile, and stores nothing',
    async () => {
      const { auth } = await m.verifiedDomain('heavy.test');
      let settled = false;
      const heavy = call('POST', '/v1/send', auth, {
        to: RECIPIENTS,
        from: 'hello@heavy.test',
        subject: `${LOOPS}Hi`,
        body: `<p>${LOOPS}Hello</p>`,
      }).finally(() => {
        settled = true;
      });
      let answeredMeanwhile = 0;
      while (!settled) {
        const health = await call('GET', '/healthz', {});
        expect(health.status).toBe(200);
        if (!settled) answeredMeanwhile += 1;
      }
      expectBudgetRefusal(await heavy, 'body');
      expect(answeredMeanwhile).toBeGreaterThanOrEqual(3);
      await expectNothingStored(auth);
    },
  );

  it('refuses messages whose rendered output together exceeds the budget, with a stored template named', async () => {
    const { auth } = await m.verifiedDomain('big.test');
    const filler = 'x'.repeat(5_000); // 10k characters a message (HTML and text): 50 of them are 500k
    expectBudgetRefusal(
      await call('POST', '/v1/send', auth, {
        to: RECIPIENTS,
        from: 'hello@big.test',
        subject: 'Hi',
        body: '<p>{{ filler }}</p>',
        data: { filler },
      }),
      'body',
    );
    const template = await call('POST', '/templates', auth, {
      name: 'Big',
      subject: 'Hi',
      body: '<p>{{ filler }}</p>',
      type: 'TRANSACTIONAL',
      from: 'hello@big.test',
    });
    expect(template.status).toBe(201);
    expectBudgetRefusal(
      await call('POST', '/v1/send', auth, {
        to: RECIPIENTS,
        template: (template.body.data as { id: string }).id,
        data: { filler },
      }),
      'template.body',
    );
    await expectNothingStored(auth);
    // The same template to fewer recipients fits.
    const fits = await call('POST', '/v1/send', auth, {
      to: RECIPIENTS.slice(0, 5),
      from: 'hello@big.test',
      subject: 'Hi',
      body: '<p>{{ filler }}</p>',
      data: { filler },
    });
    expect(fits.status, JSON.stringify(fits.body).slice(0, 500)).toBe(200);
  });

  it('POST /templates/preview has the same budget', async () => {
    const { auth } = await m.verifiedDomain('preview.test');
    const body = '<p>{% for i in (1..30) %}{{ filler }}{% endfor %}</p>'; // 150k characters of HTML, and as much text
    expectBudgetRefusal(
      await call('POST', '/templates/preview', auth, { subject: 'Hi', body, data: { filler: 'x'.repeat(5_000) } }),
      'body',
    );
    expect(
      (await call('POST', '/templates/preview', auth, { subject: 'Hi', body, data: { filler: 'x'.repeat(1_000) } }))
        .status,
    ).toBe(200);
  });

  it('a body nested too deeply for its text part is a 422 on `body`, not a 500', async () => {
    const { auth } = await m.verifiedDomain('deep.test');
    const body = `${'<div>'.repeat(20_000)}x${'</div>'.repeat(20_000)}`;
    const res = await call('POST', '/v1/send', auth, {
      to: 'a@dest.test',
      from: 'hello@deep.test',
      subject: 'Hi',
      body,
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(422);
    expect(errorShape.parse(res.body).error.errors?.map((e) => e.field)).toEqual(['body']);
    await expectNothingStored(auth);
  });

  it(
    'renders each message for the contact it is stored with, even when concurrent ' + 'sends create that contact',
    async () => {
      const { auth } = await m.verifiedDomain('race.test');
      const sends = await Promise.all(
        Array.from({ length: 5 }, () =>
          call('POST', '/v1/send', auth, {
            to: 'new@dest.test',
            from: 'hello@race.test',
            subject: 'Contact {{ contact.id }}',
            body: '<p>{{ contact.id }}</p>',
          }),
        ),
      );
      const contacts = (await call('GET', '/contacts?email=new@dest.test', auth)).body.data as {
        items: { id: string }[];
      };
      expect(contacts.items).toHaveLength(1);
      const contactId = contacts.items[0]!.id;
      for (const sent of sends) {
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        const [email] = (sent.body.data as { emails: { email: string; contact: { id: string } }[] }).emails;
        expect(email!.contact.id).toBe(contactId);
        expect(((await call('GET', `/emails/${email!.email}`, auth)).body.data as { subject: string }).subject).toBe(
          `Contact ${contactId}`,
        );
      }
    },
  );

  it(
    "makes each recipient's `to.name` the template's {{ name }}, over the contact's " + "and under the request's data",
    async () => {
      const { auth } = await m.verifiedDomain('names.test');
      expect(
        (await call('POST', '/contacts', auth, { email: 'old@dest.test', data: { name: 'Old Name' } })).status,
      ).toBe(201);
      const to = [
        { name: 'Ann Lee', email: 'ann@dest.test' },
        'bob@dest.test',
        { name: 'New Name', email: 'old@dest.test' },
        { email: 'cy@dest.test' },
      ];
      const subjectsOf = async (payload: Record<string, unknown>) => {
        const res = await call('POST', '/v1/send', auth, { to, from: 'hello@names.test', ...payload });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const emails = (res.body.data as { emails: { email: string }[] }).emails;
        return Promise.all(
          emails.map(
            async (e) => ((await call('GET', `/emails/${e.email}`, auth)).body.data as { subject: string }).subject,
          ),
        );
      };
      expect(await subjectsOf({ subject: 'Hi {{ name ?? "there" }}', body: '<p>Hello {{ name }}</p>' })).toEqual([
        'Hi Ann Lee',
        'Hi there',
        'Hi New Name',
        'Hi there',
      ]);
      const template = await call('POST', '/templates', auth, {
        name: 'Names',
        subject: 'Dear {{ name ?? "reader" }}',
        body: '<p>{{ name }}</p>',
        type: 'TRANSACTIONAL',
        from: 'hello@names.test',
      });
      expect(await subjectsOf({ template: (template.body.data as { id: string }).id })).toEqual([
        'Dear Ann Lee',
        'Dear reader',
        'Dear New Name',
        'Dear reader',
      ]);
      expect(await subjectsOf({ subject: 'Hi {{ name }}', body: 'x', data: { name: 'From data' } })).toEqual(
        Array(4).fill('Hi From data'),
      );
    },
  );
});
