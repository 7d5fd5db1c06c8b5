import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resend } from 'resend';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { listeningResend, walkResendList as walk } from '../../support/resend.ts';

describe('the Resend SDK on segments', () => {
  let t: TestApp;
  let project: Awaited<ReturnType<TestApp['createProject']>>;
  let resend: Resend;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Resend segments');
    resend = await listeningResend(t.app, project.secretKey);
  });
  afterAll(() => t.close());

  it('creates, reads, renames, lists (both ways) and removes segments, which are Herald lists', async () => {
    const created = await resend.segments.create({ name: 'Beta testers' });
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'segment', id: expect.any(String), name: 'Beta testers' });
    const id = created.data!.id;

    const herald = await t.app.inject({ method: 'GET', url: `/segments/${id}`, headers: project.auth });
    expect(herald.json().data).toMatchObject({ name: 'Beta testers', type: 'STATIC', memberCount: 0 });

    expect((await resend.segments.get(id)).data).toEqual({
      object: 'segment',
      id,
      name: 'Beta testers',
      created_at: expect.any(String),
    });
    expect((await resend.segments.update(id, { name: 'Early birds' })).data).toEqual({ object: 'segment', id });
    // The SDK's `audiences` is the same resource.
    expect((await resend.audiences.get(id)).data?.name).toBe('Early birds');

    const more = [];
    for (const name of ['Two', 'Three', 'Four', 'Five']) more.push((await resend.segments.create({ name })).data!.id);
    // A DYNAMIC segment of Herald's is no Resend segment.
    const dynamic = await t.app.inject({
      method: 'POST',
      url: '/segments',
      headers: project.auth,
      payload: { name: 'Pros', filter: { field: 'data.plan', operator: 'equals', value: 'pro' } },
    });
    const { forward, backward } = await walk((page) => resend.segments.list(page));
    expect(forward).toEqual([...more].reverse().concat(id));
    expect(backward).toEqual(forward);
    expect((await resend.segments.get(dynamic.json().data.id)).error).toMatchObject({ statusCode: 404 });

    const removed = await resend.segments.remove(more[0]!);
    expect(removed.data).toEqual({ object: 'segment', id: more[0], deleted: true });
    expect((await resend.segments.get(more[0]!)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it('adds, lists and removes the segments of a contact, by id and by email', async () => {
    const a = (await resend.segments.create({ name: 'A' })).data!.id;
    const b = (await resend.segments.create({ name: 'B' })).data!.id;
    const contact = (await resend.contacts.create({ email: 'lee@example.test' })).data!.id;

    expect((await resend.contacts.segments.add({ contactId: contact, segmentId: a })).data).toEqual({ id: a });
    expect((await resend.contacts.segments.add({ email: 'lee@example.test', segmentId: b })).error).toBeNull();
    const listed = await resend.contacts.segments.list({ email: 'lee@example.test' });
    expect(listed.data).toMatchObject({ object: 'list', has_more: false });
    expect(listed.data!.data.map((s) => s.name)).toEqual(['B', 'A']);
    const page = await resend.contacts.segments.list({ contactId: contact, limit: 1, after: b });
    expect(page.data!.data.map((s) => s.id)).toEqual([a]);

    // Herald sees the membership.
    const members = await t.app.inject({ method: 'GET', url: `/segments/${a}/contacts`, headers: project.auth });
    expect(members.json().data.items.map((c: { id: string }) => c.id)).toEqual([contact]);

    const removed = await resend.contacts.segments.remove({ contactId: contact, segmentId: a });
    expect(removed.data).toMatchObject({ id: a, deleted: true });
    expect((await resend.contacts.segments.list({ contactId: contact })).data!.data.map((s) => s.id)).toEqual([b]);

    const unknown = await resend.contacts.segments.add({ contactId: contact, segmentId: crypto.randomUUID() });
    expect(unknown.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    const nobody = await resend.contacts.segments.list({ email: 'nobody@example.test' });
    expect(nobody.error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it("lists a segment's contacts with contacts.list({ segmentId }) and the older audienceId", async () => {
    const segment = (await resend.segments.create({ name: 'Readers' })).data!.id;
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      const id = (await resend.contacts.create({ email: `reader${n}@example.test` })).data!.id;
      ids.unshift(id);
      if (n !== 3) await resend.contacts.segments.add({ contactId: id, segmentId: segment });
    }
    const members = ids.filter((_, i) => i !== 2);
    const bySegment = await walk((page) => resend.contacts.list({ segmentId: segment, ...page }));
    expect(bySegment.forward).toEqual(members);
    expect(bySegment.backward).toEqual(members);
    const byAudience = await resend.contacts.list({ audienceId: segment });
    expect(byAudience.data).toMatchObject({ object: 'list', has_more: false });
    expect(byAudience.data!.data.map((c) => c.email)).toEqual(
      members.map((_, i) => `reader${[5, 4, 2, 1][i]}@example.test`),
    );

    const unknown = await resend.contacts.list({ segmentId: crypto.randomUUID() });
    expect(unknown.error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it("answers Resend's errors", async () => {
    const empty = await resend.segments.create({ name: '' });
    expect(empty).toMatchObject({ data: null, error: { statusCode: 422, name: 'validation_error' } });
    expect(empty.error!.message).toContain('name');
    expect((await resend.segments.remove(crypto.randomUUID())).error).toMatchObject({ statusCode: 404 });
    const bad = await resend.segments.list({ after: crypto.randomUUID() });
    expect(bad.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    const wrongKey = await (await listeningResend(t.app, 'sk_not_a_key')).segments.list();
    expect(wrongKey.error).toMatchObject({ statusCode: 403, name: 'invalid_api_key' });
  });
});
