import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resend } from 'resend';
import { publishDomainRecords } from '../../support/dns-server.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { listeningResend } from '../../support/resend.ts';

describe('the Resend SDK on domains and contacts', () => {
  let m: MailFixture;
  let project: Awaited<ReturnType<MailFixture['t']['createProject']>>;
  let resend: Resend;

  beforeAll(async () => {
    m = await startMailFixture();
    project = await m.t.createProject('Resend');
    resend = await listeningResend(m.t.app, project.secretKey);
  });
  afterAll(() => m.close());

  it('creates, verifies, reads, lists, updates and deletes a domain', async () => {
    const created = await resend.domains.create({ name: 'Mail.Resend.test' });
    expect(created.error).toBeNull();
    const domain = created.data!;
    expect(domain).toMatchObject({
      name: 'mail.resend.test',
      status: 'pending',
      capabilities: { sending: 'enabled', receiving: 'disabled' },
    });
    const dkim = domain.records.find((r) => r.record === 'DKIM')!;
    expect(dkim).toMatchObject({ type: 'TXT', ttl: 'Auto', status: 'pending' });
    expect(dkim.name).toMatch(/\._domainkey\.mail\.resend\.test$/);
    expect(domain.records.map((r) => r.record)).toEqual(expect.arrayContaining(['DKIM', 'SPF', 'DMARC']));

    // Receiving needs a verified domain: Herald's 409 in Resend's shape.
    const early = await resend.domains.update({ id: domain.id, capabilities: { receiving: 'enabled' } });
    expect(early.error).toMatchObject({ statusCode: 409, name: 'validation_error' });

    const herald = await m.t.app.inject({ method: 'GET', url: `/domains/${domain.id}`, headers: project.auth });
    publishDomainRecords(m.dns, herald.json().data.records);
    const verified = await resend.domains.verify(domain.id);
    expect(verified).toMatchObject({ data: { object: 'domain', id: domain.id }, error: null });

    const read = await resend.domains.get(domain.id);
    expect(read.data).toMatchObject({ object: 'domain', id: domain.id, name: 'mail.resend.test', status: 'verified' });
    expect(read.data!.records.every((r) => r.status === 'verified' || r.record !== 'DKIM')).toBe(true);

    const updated = await resend.domains.update({ id: domain.id, capabilities: { receiving: 'enabled' } });
    expect(updated).toMatchObject({ data: { object: 'domain', id: domain.id }, error: null });
    const receiving = (await resend.domains.get(domain.id)).data!;
    expect(receiving.capabilities.receiving).toBe('enabled');
    const mx = receiving.records.find((r) => r.record === 'Receiving');
    expect(mx).toMatchObject({ type: 'MX', priority: 10 });
    expect(mx!.value).not.toMatch(/^\d/);

    const second = await resend.domains.create({ name: 'other.resend.test' });
    const page1 = await resend.domains.list({ limit: 1 });
    expect(page1.data).toMatchObject({ object: 'list', has_more: true });
    expect(page1.data!.data.map((d) => d.id)).toEqual([second.data!.id]);
    expect(page1.data!.data[0]).not.toHaveProperty('records');
    const page2 = await resend.domains.list({ limit: 1, after: second.data!.id });
    expect(page2.data).toMatchObject({ object: 'list', has_more: false });
    expect(page2.data!.data.map((d) => d.id)).toEqual([domain.id]);

    const removed = await resend.domains.remove(second.data!.id);
    expect(removed).toMatchObject({ data: { object: 'domain', id: second.data!.id, deleted: true }, error: null });
    expect((await resend.domains.get(second.data!.id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it("answers validation errors and unknown ids in Resend's shape", async () => {
    const bad = await resend.domains.create({ name: 'not a domain' });
    expect(bad).toMatchObject({ data: null, error: { statusCode: 422, name: 'validation_error' } });
    const missing = await resend.domains.get(crypto.randomUUID());
    expect(missing.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect(missing.error!.message).toMatch(/not found/i);
  });

  it('creates, reads by id and by email, updates, lists and deletes contacts', async () => {
    const created = await resend.contacts.create({
      email: 'Ann@Example.test',
      firstName: 'Ann',
      lastName: 'Lee',
      unsubscribed: false,
    });
    expect(created.error).toBeNull();
    const id = created.data!.id;
    expect(created.data).toEqual({ object: 'contact', id });

    const byId = await resend.contacts.get(id);
    expect(byId.data).toMatchObject({
      object: 'contact',
      id,
      email: 'ann@example.test',
      first_name: 'Ann',
      last_name: 'Lee',
      unsubscribed: false,
    });
    const byEmail = await resend.contacts.get({ email: 'ann@example.test' });
    expect(byEmail.data?.id).toBe(id);

    // Herald's own API sees the same contact: names in data, unsubscribed as !subscribed.
    const herald = await m.t.app.inject({ method: 'GET', url: `/contacts/${id}`, headers: project.auth });
    expect(herald.json().data).toMatchObject({ subscribed: true, data: { firstName: 'Ann', lastName: 'Lee' } });

    const updated = await resend.contacts.update({ email: 'ann@example.test', unsubscribed: true, firstName: 'Annie' });
    expect(updated).toMatchObject({ data: { object: 'contact', id }, error: null });
    expect((await resend.contacts.get(id)).data).toMatchObject({
      first_name: 'Annie',
      last_name: 'Lee',
      unsubscribed: true,
    });

    const other = await resend.contacts.create({ email: 'bob@example.test' });
    const list = await resend.contacts.list({ limit: 1 });
    expect(list.data).toMatchObject({ object: 'list', has_more: true });
    expect(list.data!.data.map((c) => c.email)).toEqual(['bob@example.test']);
    const next = await resend.contacts.list({ limit: 10, after: other.data!.id });
    expect(next.data!.data.map((c) => c.email)).toEqual(['ann@example.test']);

    const removed = await resend.contacts.remove({ email: 'bob@example.test' });
    expect(removed).toMatchObject({ data: { object: 'contact', contact: other.data!.id, deleted: true }, error: null });
    expect((await resend.contacts.get(other.data!.id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it('serves the audience-scoped contact paths, the audience being the project', async () => {
    const audienceId = crypto.randomUUID();
    const created = await resend.contacts.create({ audienceId, email: 'cy@example.test', firstName: 'Cy' });
    expect(created.error).toBeNull();
    const read = await resend.contacts.get({ audienceId, email: 'cy@example.test' });
    expect(read.data).toMatchObject({ id: created.data!.id, first_name: 'Cy' });
    await resend.contacts.update({ audienceId, id: created.data!.id, lastName: 'Young' });
    expect((await resend.contacts.get(created.data!.id)).data?.last_name).toBe('Young');
    const removed = await resend.contacts.remove({ audienceId, id: created.data!.id });
    expect(removed.data).toMatchObject({ deleted: true });
  });

  it("refuses a bad contact in Resend's shape", async () => {
    const res = await resend.contacts.create({ email: 'not-an-address' });
    expect(res).toMatchObject({ data: null, error: { statusCode: 422, name: 'validation_error' } });
    expect(res.error!.message).toContain('email');
  });
});
