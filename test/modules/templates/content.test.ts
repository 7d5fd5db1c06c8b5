// Templates and campaigns in each format, sent to a real SMTP sink: the bytes that arrive (Outlook conditionals, the
// phone layout's media query, each block, the footer links, the language), versions, layouts and the bad inputs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

const newsletter = {
  version: 1,
  settings: { width: 600, backgroundColor: '#f4f4f4', textColor: '#222222' },
  blocks: [
    { type: 'heading', text: 'Spring news for {{ firstName }}', level: 1 },
    { type: 'text', html: '<p>Our <strong>best</strong> season<script>alert(1)</script></p><p onclick="x()">Hi</p>' },
    { type: 'button', text: 'Read more', url: 'https://example.test/read' },
    {
      type: 'columns',
      columns: [
        { blocks: [{ type: 'text', html: '<p>Left column</p>' }] },
        { blocks: [{ type: 'image', src: 'https://example.test/pic.png', alt: 'A picture' }] },
      ],
    },
    { type: 'divider' },
    { type: 'footer', address: '1 Main Street, Springfield' },
  ],
};

const mjml =
  '<mjml><mj-body><mj-section><mj-column><mj-text>MJML hello {{ firstName }}</mj-text>' +
  '<mj-button href="https://example.test/go">Go</mj-button></mj-column></mj-section></mj-body></mjml>';

describe('content formats, versions, layouts and translations', () => {
  let m: MailFixture;
  let auth: { authorization: string };
  let projectId: string;

  beforeAll(async () => {
    m = await startMailFixture();
    const sender = await m.verifiedDomain('example.test');
    auth = sender.auth;
    projectId = sender.project.id;
    await upsertContacts({
      db: m.t.ctx.db,
      consent: { type: 'api' },
      projectId,
      rows: [
        { email: 'ana@dest.test', defaultSubscribed: true, patch: { firstName: 'Ana' } },
        { email: 'hans@dest.test', defaultSubscribed: true, patch: { firstName: 'Hans' } },
        { email: 'joao@dest.test', defaultSubscribed: true, patch: { firstName: 'João' } },
      ],
    });
    await m.t.ctx.db.execute(
      `UPDATE contacts SET locale = CASE email WHEN 'hans@dest.test' THEN 'de-AT' WHEN 'joao@dest.test' THEN 'pt-BR'
        ELSE NULL END`,
    );
  });
  afterAll(() => m.close());

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const template = async (payload: Record<string, unknown>) => {
    const res = await api('POST', '/templates', {
      name: 'T',
      type: 'MARKETING',
      subject: 'Hello {{ firstName }}',
      from: 'news@example.test',
      ...payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; body: string; version: number };
  };
  /** Sends the template to `to` and returns the parsed message the sink received, with its email record. */
  const sendTemplate = async (id: string, to: string) => {
    const before = m.sink.messages.length;
    const res = await api('POST', '/v1/send', { to, template: id });
    expect(res.statusCode, res.body).toBe(200);
    const emailId = res.json().data.emails[0].email as string;
    const [message] = (await m.sink.waitForMessages(before + 1)).slice(before);
    const email = (await api('GET', `/emails/${emailId}`)).json().data;
    return { raw: message!.raw.toString('utf8'), parsed: await simpleParser(message!.raw), email };
  };
  const problem = (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(422);
    return JSON.parse(res.body).error as { errors?: { field: string; message: string }[]; message: string };
  };

  it('sends a block template as responsive HTML: Outlook conditionals, media query, blocks, footer', async () => {
    const { id, body } = await template({ format: 'blocks', content: newsletter });
    expect(body).toContain('<!--[if mso');
    const { raw, parsed } = await sendTemplate(id, 'ana@dest.test');
    const html = parsed.html as string;
    expect(parsed.subject).toBe('Hello Ana');
    expect(raw).toContain('<!--[if mso');
    expect(html).toMatch(/@media only screen and \(min-width:\s?480px\)/);
    expect(html).toContain('Spring news for Ana');
    expect(html).toContain('Read more');
    expect(html).toContain('Left column');
    expect(html).toContain('https://example.test/pic.png');
    expect(html).toContain('1 Main Street, Springfield');
    expect(html).toMatch(/\/unsubscribe\/[^"]+"/);
    expect(html).toContain('Manage preferences');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onclick');
  });

  it('sends an MJML template compiled once, with Liquid rendered per recipient', async () => {
    const { id } = await template({ format: 'mjml', content: mjml });
    const { parsed, raw } = await sendTemplate(id, 'ana@dest.test');
    expect(raw).toContain('<!--[if mso');
    expect(parsed.html).toContain('MJML hello Ana');
    expect(parsed.html).toMatch(/@media only screen/);
  });

  it("sends each contact's translation by the chain (de-AT reads de, pt-BR reads pt) and records it", async () => {
    const { id } = await template({
      format: 'blocks',
      content: newsletter,
      translations: {
        de: {
          subject: 'Hallo {{ firstName }}',
          content: { ...newsletter, blocks: [{ type: 'heading', text: 'Frühling', level: 1 }] },
        },
        pt: { subject: 'Olá {{ firstName }}' },
      },
    });
    const hans = await sendTemplate(id, 'hans@dest.test');
    expect(hans.parsed.subject).toBe('Hallo Hans');
    expect(hans.parsed.html).toContain('Frühling');
    expect(hans.email.locale).toBe('de');
    const joao = await sendTemplate(id, 'joao@dest.test');
    expect(joao.parsed.subject).toBe('Olá João');
    expect(joao.parsed.html).toContain('Spring news for João');
    expect(joao.email.locale).toBe('pt');
    const ana = await sendTemplate(id, 'ana@dest.test');
    expect(ana.parsed.subject).toBe('Hello Ana');
    expect(ana.email.locale).toBeNull();
  });

  it('keeps drafts out of sends until published; publishes, restores, and refuses what cannot be', async () => {
    const { id } = await template({ subject: 'First', body: '<p>one</p>', format: 'html' });
    const draft = await api('PATCH', `/templates/${id}`, { subject: 'Second', publish: false });
    expect(draft.json().data).toMatchObject({ subject: 'First', version: 1, hasUnpublishedChanges: true });
    expect(draft.json().data.draft).toMatchObject({ subject: 'Second', version: 2 });
    expect((await sendTemplate(id, 'ana@dest.test')).parsed.subject).toBe('First');
    const published = await api('POST', `/templates/${id}/publish`);
    expect(published.json().data).toMatchObject({ subject: 'Second', version: 2, hasUnpublishedChanges: false });
    expect(published.json().data.publishedBy).toMatchObject({ type: 'key' });
    expect((await sendTemplate(id, 'ana@dest.test')).parsed.subject).toBe('Second');
    expect((await api('POST', `/templates/${id}/publish`)).statusCode).toBe(409);
    const versions = (await api('GET', `/templates/${id}/versions`)).json().data;
    expect(versions.map((v: { version: number; draft: boolean }) => [v.version, v.draft])).toEqual([
      [2, false],
      [1, false],
    ]);
    expect((await api('GET', `/templates/${id}/versions/1`)).json().data).toMatchObject({ subject: 'First' });
    expect((await api('POST', `/templates/${id}/versions/9/restore`)).statusCode).toBe(404);
    const restored = await api('POST', `/templates/${id}/versions/1/restore`);
    expect(restored.json().data.draft).toMatchObject({ subject: 'First', version: 3 });
    // Two people publish the same draft at once: one wins, the other gets 409, and nothing is lost.
    const both = await Promise.all([api('POST', `/templates/${id}/publish`), api('POST', `/templates/${id}/publish`)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await api('GET', `/templates/${id}`)).json().data).toMatchObject({ subject: 'First', version: 3 });
    const audit = (
      await m.t.app.inject({ method: 'GET', url: '/audit-log?action=template.published', headers: auth })
    ).json().data.items;
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses to send a template that was never published (422)', async () => {
    const { id } = await template({ body: '<p>x</p>', publish: false });
    const res = await api('POST', '/v1/send', { to: 'ana@dest.test', template: id });
    expect(problem(res).errors?.[0]?.field).toBe('template');
  });

  it('puts templates in layouts: named, default or none; recompiles on a change; 409 while used', async () => {
    const two = await api('POST', '/layouts', { name: 'L', format: 'html', body: '{{ content }}{{content}}' });
    expect(problem(two).errors?.[0]?.field).toBe('body');
    const none = await api('POST', '/layouts', { name: 'L', format: 'html', body: '<p>no slot</p>' });
    expect(problem(none).errors?.[0]?.field).toBe('body');
    const layout = (
      await api('POST', '/layouts', {
        name: 'Frame',
        format: 'html',
        body: '<div>HEADER</div>{{ content }}<div>FOOT</div>',
      })
    ).json().data;
    const named = await template({ body: '<p>inside</p>', layoutId: layout.id });
    expect((await sendTemplate(named.id, 'ana@dest.test')).parsed.html).toMatch(/HEADER[\s\S]*inside[\s\S]*FOOT/);
    await api('PATCH', `/layouts/${layout.id}`, { body: '<div>NEW HEADER</div>{{ content }}' });
    expect((await sendTemplate(named.id, 'ana@dest.test')).parsed.html).toContain('NEW HEADER');
    const inUse = await api('DELETE', `/layouts/${layout.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error.message).toContain('template T');

    const settings = await api('PATCH', '/settings', { defaultLayoutId: layout.id });
    expect(settings.json().data.defaultLayoutId).toBe(layout.id);
    const byDefault = await template({ body: '<p>default frame</p>' });
    const optedOut = await template({ body: '<p>bare</p>', layoutId: null });
    expect((await sendTemplate(byDefault.id, 'ana@dest.test')).parsed.html).toContain('NEW HEADER');
    expect((await sendTemplate(optedOut.id, 'ana@dest.test')).parsed.html).not.toContain('HEADER');
    expect((await api('GET', `/templates/${optedOut.id}`)).json().data.layoutId).toBeNull();
    expect((await api('GET', `/templates/${byDefault.id}`)).json().data).not.toHaveProperty('layoutId');
    // Back to the project default, and a layout only a draft names is still in use.
    const back = await api('PATCH', `/templates/${optedOut.id}`, { layoutId: 'default' });
    expect(back.json().data).not.toHaveProperty('layoutId');
    expect((await sendTemplate(optedOut.id, 'ana@dest.test')).parsed.html).toContain('NEW HEADER');
    await api('PATCH', '/settings', { defaultLayoutId: null });
    const spare = (await api('POST', '/layouts', { name: 'Spare', format: 'html', body: '{{ content }}' })).json().data;
    await api('PATCH', `/templates/${optedOut.id}`, { layoutId: spare.id, publish: false });
    expect((await api('DELETE', `/layouts/${spare.id}`)).statusCode).toBe(409);
  });

  it('sends a campaign made from a block template, in each contact language, recording the version', async () => {
    const { id: templateId } = await template({
      format: 'blocks',
      content: newsletter,
      translations: { de: { subject: 'Neuigkeiten für {{ firstName }}' } },
    });
    const created = await api('POST', '/campaigns', { name: 'From template', templateId, audienceType: 'ALL' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ format: 'blocks', templateId, templateVersion: 1 });
    // A later version of the template never changes the campaign.
    await api('PATCH', `/templates/${templateId}`, { subject: 'Changed later' });
    const before = m.sink.messages.length;
    expect((await api('POST', `/campaigns/${created.json().data.id}/send`)).statusCode).toBe(202);
    const messages = (await m.sink.waitForMessages(before + 3, 30_000)).slice(before);
    const byTo = new Map<string, string>();
    for (const msg of messages) byTo.set(msg.to[0]!, (await simpleParser(msg.raw)).subject ?? '');
    expect(byTo.get('hans@dest.test')).toBe('Neuigkeiten für Hans');
    expect(byTo.get('ana@dest.test')).toBe('Hello Ana');
    const html = (await simpleParser(messages[0]!.raw)).html as string;
    expect(html).toContain('<!--[if mso');
    await until(
      async () => (await api('GET', `/campaigns/${created.json().data.id}`)).json().data.status === 'SENT',
      'SENT',
    );
  });

  it('refuses bad content with 422s naming the MJML line or the block path', async () => {
    const garbage = problem(await api('POST', '/templates/preview', { format: 'mjml', content: 'not <mjml at all' }));
    expect(garbage.errors?.[0]?.field).toBe('content');
    const invalid = problem(
      await api('POST', '/templates/preview', {
        format: 'mjml',
        content: '<mjml><mj-body>\n<mj-column><mj-text>x</mj-text></mj-column></mj-body></mjml>',
      }),
    );
    expect(invalid.message).toMatch(/line 2/i);
    const script = problem(
      await api('POST', '/templates/preview', {
        format: 'mjml',
        content: '<mjml><mj-body>\n<mj-raw><script>alert(1)</script></mj-raw></mj-body></mjml>',
      }),
    );
    expect(script.message).toMatch(/line 2/i);
    const jsButton = problem(
      await api('POST', '/templates', {
        name: 'x',
        type: 'MARKETING',
        subject: 's',
        format: 'blocks',
        content: {
          version: 1,
          blocks: [
            {
              type: 'columns',
              columns: [{ blocks: [] }, { blocks: [{ type: 'button', text: 'x', url: 'javascript:alert(1)' }] }],
            },
          ],
        },
      }),
    );
    expect(jsButton.errors?.[0]?.field).toBe('content.blocks[0].columns[1].blocks[0].url');
    const nested = problem(
      await api('POST', '/templates/preview', {
        format: 'blocks',
        content: {
          version: 1,
          blocks: [
            {
              type: 'columns',
              columns: [{ blocks: [{ type: 'columns', columns: [{ blocks: [] }, { blocks: [] }] }] }, { blocks: [] }],
            },
          ],
        },
      }),
    );
    expect(nested.errors?.[0]?.field).toMatch(/^content\.blocks\[0\]\.columns\[0\]\.blocks\[0\]/);
    let deep: unknown = { type: 'heading', text: 'x', level: 1 };
    for (let i = 0; i < 10; i++) deep = { type: 'columns', columns: [{ blocks: [deep] }, { blocks: [] }] };
    expect(
      problem(await api('POST', '/templates/preview', { format: 'blocks', content: { version: 1, blocks: [deep] } }))
        .errors?.[0]?.field,
    ).toMatch(/^content\.blocks\[0\]/);
    const many = Array.from({ length: 5000 }, () => ({ type: 'divider' }));
    expect(
      problem(await api('POST', '/templates/preview', { format: 'blocks', content: { version: 1, blocks: many } }))
        .message,
    ).toMatch(/1,?000/);
    const image = problem(
      await api('POST', '/templates/preview', {
        format: 'blocks',
        content: { version: 1, blocks: [{ type: 'image', src: 'ftp://example.test/a.png', alt: 'a' }] },
      }),
    );
    expect(image.errors?.[0]?.field).toBe('content.blocks[0].src');
    const locale = problem(
      await api('POST', '/templates', {
        name: 'x',
        type: 'MARKETING',
        subject: 's',
        body: '<p>x</p>',
        translations: { 'xx-INVALID': { subject: 'y' } },
      }),
    );
    expect(locale.errors?.[0]?.field).toBe('translations.xx-INVALID');
    const { id } = await template({ format: 'mjml', content: mjml });
    expect(problem(await api('PATCH', `/templates/${id}`, { body: '<p>hand-made</p>' })).errors?.[0]?.field).toBe(
      'body',
    );
  });

  it('previews without saving, as a contact, in a locale', async () => {
    const res = await api('POST', '/templates/preview', {
      subject: 'Hello {{ firstName }}',
      format: 'blocks',
      content: newsletter,
      translations: { de: { subject: 'Hallo {{ firstName }}' } },
      locale: 'de-CH',
      data: { firstName: 'Eva' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ subject: 'Hallo Eva', locale: 'de' });
    expect(res.json().data.html).toContain('Spring news for Eva');
  });
});
