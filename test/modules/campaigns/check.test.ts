// The pre-send check at the real endpoints: crafted campaigns and templates, the DNS blocklist and DMARC answers
// of a real DNS server, the 409 of a send with errors (and the forced send), and the project's raised codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertContacts } from '../../../src/modules/contacts/index.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

const ZONE = 'dbl.blocklist.test';

interface Issue {
  code: string;
  severity: string;
  message: string;
  fix: string;
}

describe('the pre-send check', () => {
  let m: MailFixture;
  let auth: { authorization: string };
  let projectId: string;
  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers = auth) =>
    m.t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const campaign = async (extra: Record<string, unknown>) => {
    const res = await req('POST', '/campaigns', {
      name: 'check',
      audienceType: 'ALL',
      from: 'news@check.test',
      subject: 'News',
      body: '<p>Plenty of news for everyone this month.</p><a href="{{ unsubscribeUrl }}">Unsubscribe</a>',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const check = async (id: string) => {
    const res = await req('POST', `/campaigns/${id}/check`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { score: number; issues: Issue[] };
  };
  const codes = (result: { issues: Issue[] }) => result.issues.map((issue) => issue.code).sort();

  beforeAll(async () => {
    m = await startMailFixture({ env: { DNSBL_DOMAIN_ZONES: ZONE } });
    const domain = await m.verifiedDomain('check.test');
    auth = domain.auth;
    projectId = domain.project.id;
    // The blocklist: bad.example is listed (a DBL reason code), refused.example gets the answer a blocklist gives
    // to queries it refuses, slow.example is never answered.
    m.dns.setRecords(`bad.example.${ZONE}`, [{ type: 'A', address: '127.0.1.2' }]);
    m.dns.setRecords(`refused.example.${ZONE}`, [{ type: 'A', address: '127.255.255.254' }]);
    m.dns.silence(`slow.example.${ZONE}`);
    await upsertContacts({
      db: m.t.ctx.db,
      consent: { type: 'api' },
      projectId,
      rows: Array.from({ length: 10 }, (_, i) => ({
        email: `reader${i}@dest.test`,
        defaultSubscribed: true,
        patch: i < 4 ? { firstName: `R${i}`, plan: 'pro' } : { plan: i < 7 ? 'free' : '' },
      })),
    });
  });
  afterAll(() => m.close());

  it('finds nothing wrong with a plain, linked, text-rich campaign, and scores it 100', async () => {
    const id = await campaign({ body: '<p>Hello {{ firstName ?? "there" }}, here is our news.</p>' + unsub() });
    expect(await check(id)).toEqual({ score: 100, issues: [] });
  });

  it('reports each content issue with a fix, errors first, and scores them', async () => {
    const id = await campaign({
      body:
        `<p>${'Long news. '.repeat(10_000)}</p>` +
        '<img src="https://cdn.example/a.png">' +
        '<a href="https://phish.example/login">https://www.mybank.example/login</a> ' +
        '<a href="https://bit.ly/abc">short</a> <a href="https://bad.example/offer">offer</a>',
    });
    const result = await check(id);
    expect(codes(result)).toEqual(
      [
        'html_too_large',
        'image_without_alt',
        'link_domain_blocklisted',
        'misleading_link_text',
        'no_unsubscribe_link',
        'url_shortener',
      ].sort(),
    );
    expect(result.issues[0]).toMatchObject({ code: 'link_domain_blocklisted', severity: 'error' });
    expect(result.issues[0]!.message).toContain(`bad.example (${ZONE}: 127.0.1.2)`);
    for (const issue of result.issues) expect(issue.fix.length).toBeGreaterThan(10);
    // One error (25) and five warnings (10 each).
    expect(result.score).toBe(25);
  });

  it('tells an image-only message and HTML without text apart', async () => {
    const images = await campaign({
      body: `<a href="{{ unsubscribeUrl }}"><img src="https://cdn.example/x.png" alt=""></a>`,
    });
    expect(codes(await check(images))).toEqual(['images_only']);
    const markup = await campaign({
      body: `<div style="${'color:red;'.repeat(150)}"></div><a href="{{ unsubscribeUrl }}"></a>`,
    });
    expect(codes(await check(markup))).toEqual(['no_plain_text']);
  });

  it('says a blocklist that refused or did not answer is unknown, never listed', async () => {
    const id = await campaign({
      body:
        '<p>Two links to look at this month.</p><a href="https://refused.example/">a</a>' +
        '<a href="https://slow.example/">b</a>' +
        unsub(),
    });
    const result = await check(id);
    expect(codes(result)).toEqual(['blocklist_unknown']);
    expect(result.issues[0]).toMatchObject({ severity: 'info' });
    expect(result.issues[0]!.message).toContain('refused.example');
    expect(result.issues[0]!.message).toContain('slow.example');
  });

  it('counts the recipients who lack the data the message reads', async () => {
    const id = await campaign({
      subject: 'For {{ firstName }}',
      body: '<p>Your plan: {{ plan }} {{ nick ?? "" }}</p>' + unsub(),
    });
    const [issue] = (await check(id)).issues;
    expect(issue).toMatchObject({ code: 'missing_variables', severity: 'warning' });
    // 10 readers: 6 without firstName, 3 with an empty plan.
    expect(issue!.message).toContain('firstName (6 of 10)');
    expect(issue!.message).toContain('plan (3 of 10)');
    expect(issue!.message).not.toContain('nick');
  });

  it("does not count data a contact property's fallback stands in for, warning or refusing", async () => {
    const declared = await req('POST', '/resend/contact-properties', {
      key: 'plan',
      type: 'string',
      fallback_value: 'free',
    });
    expect(declared.statusCode, declared.body).toBe(200);
    try {
      const id = await campaign({
        subject: 'For {{ firstName }}',
        body: '<p>Your plan: {{ plan }}, in {{ city }}</p>' + unsub(),
      });
      const [issue] = (await check(id)).issues;
      expect(issue).toMatchObject({ code: 'missing_variables', severity: 'warning' });
      expect(issue!.message).toContain('firstName (6 of 10)');
      expect(issue!.message).toContain('city (10 of 10)');
      expect(issue!.message).not.toContain('plan');

      // Raised to an error, the check refuses a send reading data without a fallback, not one with it.
      expect((await req('PATCH', '/settings', { checkErrors: ['missing_variables'] })).statusCode).toBe(200);
      const withoutFallback = await campaign({ body: '<p>Plenty of news about {{ city }} this month.</p>' + unsub() });
      const refused = await req('POST', `/campaigns/${withoutFallback}/send`);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error.errors).toEqual([expect.objectContaining({ code: 'missing_variables' })]);
      const withFallback = await campaign({
        body: '<p>Plenty of news for your {{ plan }} plan this month.</p>' + unsub(),
      });
      expect(codes(await check(withFallback))).toEqual([]);
      const sent = await req('POST', `/campaigns/${withFallback}/send`);
      expect(sent.statusCode, sent.body).toBe(202);
    } finally {
      await req('PATCH', '/settings', { checkErrors: [] });
      await m.t.app.inject({
        method: 'DELETE',
        url: `/resend/contact-properties/${declared.json().id}`,
        headers: auth,
      });
    }
  });

  it('warns of a sender domain without DMARC and of a tracking host not verified', async () => {
    m.dns.setRecords('_dmarc.check.test', []);
    try {
      const id = await campaign({ body: '<p>Plenty of news for everyone this month.</p>' + unsub() });
      expect(codes(await check(id))).toEqual(['no_dmarc']);
    } finally {
      m.dns.setRecords('_dmarc.check.test', [{ type: 'TXT', data: 'v=DMARC1; p=none' }]);
    }
    const other = await m.verifiedDomain('tracked.test');
    const domains = (await req('GET', '/domains', undefined, other.auth)).json().data.items as { id: string }[];
    const patched = await req(
      'PATCH',
      `/domains/${domains[0]!.id}`,
      { trackingHost: 'links.tracked.test' },
      other.auth,
    );
    expect(patched.statusCode, patched.body).toBe(200);
    const created = await req(
      'POST',
      '/campaigns',
      {
        name: 't',
        audienceType: 'ALL',
        from: 'news@tracked.test',
        subject: 'S',
        body: '<p>Plenty of news here.</p>' + unsub(),
      },
      other.auth,
    );
    const result = (await req('POST', `/campaigns/${created.json().data.id}/check`, undefined, other.auth)).json().data;
    expect(codes(result)).toEqual(['tracking_host_unverified']);
    expect(result.issues[0].message).toContain('links.tracked.test');
  });

  it('refuses to send a campaign with an error (409 CHECK_FAILED) unless forced, changing nothing', async () => {
    const id = await campaign({
      body: '<p>A deal you cannot miss this week.</p><a href="https://bad.example/">deal</a>' + unsub(),
    });
    const refused = await req('POST', `/campaigns/${id}/send`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'CHECK_FAILED',
      errors: [{ field: 'check', code: 'link_domain_blocklisted' }],
    });
    expect(refused.json().error.suggestion).toContain(`/campaigns/${id}/check`);
    expect((await req('GET', `/campaigns/${id}`)).json().data.status).toBe('DRAFT');
    const forced = await req('POST', `/campaigns/${id}/send`, { force: true });
    expect(forced.statusCode, forced.body).toBe(202);
  });

  it("raises a project's chosen warnings to errors", async () => {
    const id = await campaign({
      body: '<p>Plenty of news for everyone this month.</p><a href="https://bit.ly/x">x</a>' + unsub(),
    });
    const raised = await req('PATCH', '/settings', { checkErrors: ['url_shortener'] });
    expect(raised.statusCode, raised.body).toBe(200);
    expect(raised.json().data.checkErrors).toEqual(['url_shortener']);
    try {
      expect((await check(id)).issues[0]).toMatchObject({ code: 'url_shortener', severity: 'error' });
      expect((await req('POST', `/campaigns/${id}/send`)).json().error.code).toBe('CHECK_FAILED');
    } finally {
      await req('PATCH', '/settings', { checkErrors: [] });
    }
    expect((await check(id)).issues[0]).toMatchObject({ code: 'url_shortener', severity: 'warning' });
  });

  it('checks a template as marketing mail only when it is one', async () => {
    const make = async (type: string) => {
      const res = await req('POST', '/templates', {
        name: `t-${type}`,
        type,
        subject: 'Hi',
        body: '<p>Your receipt for this month, with thanks.</p><img src="https://cdn.example/logo.png">',
        from: 'news@check.test',
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as string;
    };
    const marketing = (await req('POST', `/templates/${await make('MARKETING')}/check`)).json().data;
    expect(codes(marketing)).toEqual(['image_without_alt', 'no_unsubscribe_link']);
    const transactional = (await req('POST', `/templates/${await make('TRANSACTIONAL')}/check`)).json().data;
    expect(codes(transactional)).toEqual(['image_without_alt']);
  });

  it('answers bad input with the error envelope', async () => {
    expect((await req('POST', '/campaigns/not-an-id/check')).statusCode).toBe(404);
    expect((await req('POST', '/campaigns/00000000-0000-7000-8000-000000000000/check')).statusCode).toBe(404);
    expect((await req('POST', '/templates/00000000-0000-7000-8000-000000000000/check')).statusCode).toBe(404);
    const id = await campaign({});
    const other = await m.t.createProject();
    expect((await req('POST', `/campaigns/${id}/check`, undefined, other.auth)).statusCode).toBe(404);
    const notBoolean = await req('POST', `/campaigns/${id}/send`, { force: 'yes' });
    expect(notBoolean.statusCode).toBe(422);
    const unknownCode = await req('PATCH', '/settings', { checkErrors: ['no_such_check'] });
    expect(unknownCode.statusCode).toBe(422);
    expect(unknownCode.json().error.errors[0].field).toMatch(/^checkErrors/);
  });
});

function unsub(): string {
  return '<a href="{{ unsubscribeUrl }}">Unsubscribe</a>';
}
