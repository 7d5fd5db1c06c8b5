// The official Resend SDK on templates, against a listening Herald with a real SMTP sink: a Resend template is a
// Herald template (a draft until published, updates saving the draft), and sends render its published version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import type { Resend } from 'resend';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { listeningResend, walkResendList } from '../../support/resend.ts';
import { until } from '../../support/until.ts';

describe('the Resend SDK on templates', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let resend: Resend;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('tpl.test');
    resend = await listeningResend(m.t.app, sender.project.secretKey);
  });
  afterAll(() => m.close());

  const arrived = async (address: string) =>
    simpleParser(
      (await until(() => m.sink.messages.find((msg) => msg.to.includes(address)), `mail to ${address}`)).raw,
    );
  const herald = async (id: string) =>
    (await m.t.app.inject({ method: 'GET', url: `/templates/${id}`, headers: sender.auth })).json().data;

  it('creates a draft that sends only once published, with its variables and their fallbacks', async () => {
    const created = await resend.templates.create({
      name: 'order-confirmation',
      from: 'Store <store@tpl.test>',
      subject: 'Your {{{PRODUCT}}}',
      html: '<p>Name: {{{PRODUCT}}}</p><p>Total: {{{PRICE}}}</p><p>{{{NOTE}}}</p><p>{{{FIRST_NAME|friend}}}</p>',
      replyTo: 'help@tpl.test',
      variables: [
        { key: 'PRODUCT', type: 'string', fallbackValue: 'item' },
        { key: 'PRICE', type: 'number', fallbackValue: 25 },
        { key: 'NOTE', type: 'string' },
      ],
    });
    expect(created.error).toBeNull();
    const id = created.data!.id;
    expect(created.data).toEqual({ object: 'template', id });

    const html =
      '<p>Name: {{ PRODUCT | default: "item" }}</p><p>Total: {{ PRICE | default: 25 }}</p><p>{{ NOTE }}</p>' +
      '<p>{{ firstName | default: "friend" }}</p>';
    const draft = await resend.templates.get(id);
    expect(draft.error).toBeNull();
    expect(draft.data).toMatchObject({
      object: 'template',
      id,
      name: 'order-confirmation',
      alias: null,
      status: 'draft',
      published_at: null,
      from: 'Store <store@tpl.test>',
      subject: 'Your {{ PRODUCT | default: "item" }}',
      reply_to: ['help@tpl.test'],
      html,
      text: null,
      has_unpublished_versions: true,
      current_version_id: '1',
    });
    expect(draft.data!.variables!.map((v) => [v.key, v.type, v.fallback_value])).toEqual([
      ['PRODUCT', 'string', 'item'],
      ['PRICE', 'number', 25],
      ['NOTE', 'string', null],
    ]);
    // It is a Herald template: transactional, never published, its content the draft.
    expect(await herald(id)).toMatchObject({
      type: 'TRANSACTIONAL',
      version: 0,
      hasUnpublishedChanges: true,
      layoutId: null,
      draft: { version: 1, body: html, from: 'store@tpl.test', fromName: 'Store', replyTo: 'help@tpl.test' },
    });

    // A draft does not send.
    const early = await resend.emails.send({ to: 'early@dest.test', template: { id, variables: { NOTE: 'x' } } });
    expect(early.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(early.error!.message).toContain('publish');

    expect((await resend.templates.publish(id)).data).toEqual({ object: 'template', id });
    const published = await resend.templates.get(id);
    expect(published.data).toMatchObject({ status: 'published', has_unpublished_versions: false, html });
    expect(published.data!.published_at).toEqual(expect.any(String));

    // Sent with variables: the fallbacks fill what is not given, every value HTML-escaped.
    const sent = await resend.emails.send({
      to: 'ann@dest.test',
      template: { id, variables: { PRODUCT: '<b>Laptop</b>', NOTE: 'Thanks' } },
    });
    expect(sent.error).toBeNull();
    const mail = await arrived('ann@dest.test');
    expect(mail.subject).toBe('Your <b>Laptop</b>');
    expect(mail.from?.value).toEqual([{ address: 'store@tpl.test', name: 'Store' }]);
    expect(mail.replyTo?.value[0]?.address).toBe('help@tpl.test');
    expect(mail.html).toContain('<p>Name: &lt;b&gt;Laptop&lt;/b&gt;</p><p>Total: 25</p><p>Thanks</p><p>friend</p>');
    // The email's story names the template version it rendered.
    const timeline = await m.t.app.inject({
      method: 'GET',
      url: `/emails/${sent.data!.id}/timeline`,
      headers: sender.auth,
    });
    expect(timeline.json().data).toContainEqual(
      expect.objectContaining({ type: 'rendered', detail: { templateId: id, version: 1 } }),
    );

    // A variable with no fallback must be given, as on Resend.
    const missing = await resend.emails.send({ to: 'bob@dest.test', template: { id } });
    expect(missing.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(missing.error!.message).toContain('NOTE');

    // `from`, `subject` and `reply_to` given with the send win; the subject is sent as written.
    const overridden = await resend.emails.send({
      from: 'Desk <desk@tpl.test>',
      to: 'cy@dest.test',
      subject: 'Order {{ 1 }}',
      replyTo: 'desk@tpl.test',
      template: { id, variables: { NOTE: 'n', PRICE: 10 } },
    });
    expect(overridden.error).toBeNull();
    const overriddenMail = await arrived('cy@dest.test');
    expect(overriddenMail.subject).toBe('Order {{ 1 }}');
    expect(overriddenMail.from?.value).toEqual([{ address: 'desk@tpl.test', name: 'Desk' }]);
    expect(overriddenMail.replyTo?.value[0]?.address).toBe('desk@tpl.test');
    expect(overriddenMail.html).toContain('<p>Total: 10</p>');
  });

  it('updates the draft while the published version keeps sending, until published again', async () => {
    const id = (
      await resend.templates
        .create({ name: 'welcome', from: 'hi@tpl.test', subject: 'Welcome', html: '<p>Version one</p>' })
        .publish()
    ).data!.id;
    const updated = await resend.templates.update(id, { name: 'welcome-v2', html: '<p>Version two {{{CODE}}}</p>' });
    expect(updated).toMatchObject({ data: { object: 'template', id }, error: null });

    const read = (await resend.templates.get(id)).data!;
    expect(read).toMatchObject({
      name: 'welcome-v2',
      status: 'published',
      has_unpublished_versions: true,
      html: '<p>Version two {{ CODE }}</p>',
      current_version_id: '2',
    });
    expect(await herald(id)).toMatchObject({ version: 1, body: '<p>Version one</p>', draft: { version: 2 } });

    expect((await resend.emails.send({ to: 'v1@dest.test', template: { id } })).error).toBeNull();
    expect((await arrived('v1@dest.test')).html).toContain('Version one');

    // Declaring a fallback later writes it where the variable is used; the HTML stays as it was.
    await resend.templates.update(id, { variables: [{ key: 'CODE', type: 'string', fallbackValue: 'none' }] });
    expect((await resend.templates.get(id)).data!.html).toBe('<p>Version two {{ CODE | default: "none" }}</p>');

    expect((await resend.templates.publish(id)).error).toBeNull();
    expect((await resend.emails.send({ to: 'v2@dest.test', template: { id } })).error).toBeNull();
    expect((await arrived('v2@dest.test')).html).toContain('Version two none');
    // Publishing with no draft changes nothing.
    expect((await resend.templates.publish(id)).data).toEqual({ object: 'template', id });
    expect(await herald(id)).toMatchObject({ version: 2, hasUnpublishedChanges: false });

    // A batch sends templates too, each with its own variables.
    const batch = await resend.batch.send([
      { to: 'b1@dest.test', template: { id, variables: { CODE: 'A1' } } },
      { from: 'hi@tpl.test', to: 'b2@dest.test', subject: 'Plain', html: '<p>No template</p>' },
    ]);
    expect(batch.error).toBeNull();
    expect((await arrived('b1@dest.test')).html).toContain('Version two A1');
    expect((await arrived('b2@dest.test')).html).toContain('No template');
  });

  it('duplicates a template as a new draft and removes templates', async () => {
    const id = (
      await resend.templates.create({ name: 'receipt', subject: 'Receipt', html: '<p>Paid {{{AMOUNT}}}</p>' }).publish()
    ).data!.id;
    await resend.templates.update(id, { html: '<p>Paid {{{AMOUNT}}} in full</p>' });

    const copy = await resend.templates.duplicate(id);
    expect(copy.error).toBeNull();
    const copyId = copy.data!.id;
    expect(copyId).not.toBe(id);
    expect((await resend.templates.get(copyId)).data).toMatchObject({
      name: 'receipt (copy)',
      status: 'draft',
      subject: 'Receipt',
      html: '<p>Paid {{ AMOUNT }} in full</p>',
    });
    // The original is unchanged, and the copy sends only once published.
    expect((await resend.templates.get(id)).data).toMatchObject({
      status: 'published',
      has_unpublished_versions: true,
    });
    const unsent = await resend.emails.send({ from: 'a@tpl.test', to: 'x@dest.test', template: { id: copyId } });
    expect(unsent.error).toMatchObject({ statusCode: 422 });
    expect((await resend.templates.duplicate(copyId).publish()).error).toBeNull();

    expect((await resend.templates.remove(copyId)).data).toEqual({ object: 'template', id: copyId, deleted: true });
    expect((await resend.templates.get(copyId)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await resend.templates.remove(copyId)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    const gone = await m.t.app.inject({ method: 'GET', url: `/templates/${copyId}`, headers: sender.auth });
    expect(gone.statusCode).toBe(404);
  });

  it("lists a project's templates newest first, Herald's own included, walked both ways", async () => {
    const project = await m.t.createProject('Template list');
    const own = await listeningResend(m.t.app, project.secretKey);
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three', 'four']) {
      const { data } = await own.templates.create({ name, html: `<p>${name}</p>` });
      ids.push(data!.id);
    }
    const made = await m.t.app.inject({
      method: 'POST',
      url: '/templates',
      headers: project.auth,
      payload: { name: 'five', subject: 'Five', body: '<p>5</p>', type: 'MARKETING' },
    });
    expect(made.statusCode, made.body).toBe(201);
    ids.push(made.json().data.id);

    const first = await own.templates.list({ limit: 2 });
    expect(first.data).toMatchObject({ object: 'list', has_more: true });
    expect(first.data!.data[0]).toEqual({
      id: ids[4],
      name: 'five',
      status: 'published',
      published_at: expect.any(String),
      alias: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const { forward, backward } = await walkResendList((page) => own.templates.list(page));
    expect(forward).toEqual([...ids].reverse());
    expect(backward).toEqual(forward);
    // Another project's templates are not there.
    const elsewhere = (await resend.templates.create({ name: 'elsewhere', html: '<p>x</p>' })).data!.id;
    expect((await own.templates.get(elsewhere)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it("answers bad input with Resend's errors", async () => {
    const error = async (call: PromiseLike<{ error: unknown }>) =>
      (await call).error as { statusCode: number; name: string; message: string };
    const create = (body: Record<string, unknown>) => resend.templates.create(body as never);

    expect(await error(create({ name: 'no html' }))).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(await error(create({ name: 'x', html: '<p>{% if %}</p>' }))).toMatchObject({
      statusCode: 422,
      message: expect.stringContaining('html'),
    });
    const reserved = await error(
      create({ name: 'x', html: '<p>x</p>', variables: [{ key: 'FIRST_NAME', type: 'string' }] }),
    );
    expect(reserved).toMatchObject({ statusCode: 422, message: expect.stringContaining('reserved') });
    const mistyped = await error(
      create({ name: 'x', html: '<p>x</p>', variables: [{ key: 'N', type: 'number', fallbackValue: 'ten' }] }),
    );
    expect(mistyped).toMatchObject({ statusCode: 422, message: expect.stringContaining('variables.0.fallback_value') });
    expect(await error(create({ name: 'x', html: '<p>x</p>', alias: 'x' }))).toMatchObject({
      statusCode: 422,
      message: expect.stringContaining('alias'),
    });
    expect(await error(create({ name: 'x', html: '<p>x</p>', from: 'a@elsewhere.test' }))).toMatchObject({
      statusCode: 403,
      name: 'validation_error',
    });
    expect(await error(create({ name: 'x', html: '<p>x</p>', replyTo: ['a@tpl.test', 'b@tpl.test'] }))).toMatchObject({
      statusCode: 422,
      message: expect.stringContaining('reply_to'),
    });

    const unknown = '0190f0f0-0000-7000-8000-000000000000';
    for (const call of [
      resend.templates.get(unknown),
      resend.templates.get('not-an-id'),
      resend.templates.update(unknown, { name: 'y' }),
      resend.templates.publish(unknown),
      resend.templates.duplicate(unknown),
      resend.templates.remove(unknown),
    ])
      expect(await error(call)).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect(await error(resend.templates.list({ after: unknown }))).toMatchObject({ statusCode: 422 });
    expect(await error(resend.templates.list({ limit: 101 }))).toMatchObject({ statusCode: 422 });

    // Sends: an unknown template, html with a template, a template without a subject and none given.
    expect(
      await error(resend.emails.send({ from: 'a@tpl.test', to: 'z@dest.test', template: { id: unknown } })),
    ).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
    const bare = (await resend.templates.create({ name: 'bare', from: 'a@tpl.test', html: '<p>Bare</p>' }).publish())
      .data!.id;
    const withHtml = { to: 'z@dest.test', html: '<p>x</p>', template: { id: bare } } as never;
    expect(await error(resend.emails.send(withHtml))).toMatchObject({
      statusCode: 422,
      message: expect.stringContaining('html'),
    });
    expect(await error(resend.emails.send({ to: 'z@dest.test', template: { id: bare } }))).toMatchObject({
      statusCode: 422,
      message: expect.stringContaining('subject'),
    });
    expect(
      (await resend.emails.send({ to: 'bare@dest.test', subject: 'Given', template: { id: bare } })).error,
    ).toBeNull();
    expect((await arrived('bare@dest.test')).subject).toBe('Given');
    const badBatch = await error(
      resend.batch.send([
        { to: 'z@dest.test', subject: 'S', template: { id: bare } },
        { to: 'z@dest.test', template: { id: bare } },
      ]),
    );
    expect(badBatch).toMatchObject({ statusCode: 422, message: expect.stringMatching(/^1\.subject/) });
  });
});
