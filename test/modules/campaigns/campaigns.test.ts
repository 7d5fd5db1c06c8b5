// Campaign resources and the state machine, without a worker: nothing is delivered here, so every
// status stays where the API put it (send.test.ts runs the sends themselves).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { expectError, expectValidation, stableError } from '../../support/envelope.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

type Auth = { authorization: string };

const campaignShape = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  subject: z.string(),
  body: z.string(),
  from: z.string(),
  fromName: z.string().nullable(),
  replyTo: z.string().nullable(),
  type: z.enum(['ALL', 'SEGMENT', 'FILTERED']),
  audienceType: z.enum(['ALL', 'SEGMENT', 'FILTERED']),
  segmentId: z.string().nullable(),
  audienceFilter: z.record(z.string(), z.unknown()).nullable(),
  status: z.enum(['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED']),
  scheduledAt: z.iso.datetime({ precision: 3 }).nullable(),
  sentAt: z.iso.datetime({ precision: 3 }).nullable(),
  recipientCount: z.number().int(),
  createdAt: z.iso.datetime({ precision: 3 }),
  updatedAt: z.iso.datetime({ precision: 3 }),
});

describe('campaigns API and state machine', () => {
  let m: MailFixture;
  let auth: Auth;
  let other: Auth;
  let projectId: string;

  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Auth = auth) =>
    m.t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const base = {
    name: 'Spring news',
    subject: 'Hello {{ firstName ?? "there" }}',
    body: '<p>Hi {{firstName}}</p><a href="{{unsubscribeUrl}}">unsubscribe</a>',
    from: 'news@example.test',
    audienceType: 'ALL',
  };
  const create = async (payload: Record<string, unknown> = {}) => {
    const res = await req('POST', '/campaigns', { ...base, ...payload });
    expect(res.statusCode, res.body).toBe(201);
    return campaignShape.parse(res.json().data);
  };
  const status = async (id: string) => (await req('GET', `/campaigns/${id}`)).json().data.status as string;
  const force = (id: string, to: string) =>
    m.t.ctx.db.execute(sql`UPDATE campaigns SET status = ${to} WHERE id = ${id}::uuid`);

  beforeAll(async () => {
    m = await startMailFixture({ worker: false });
    const sender = await m.verifiedDomain('example.test');
    auth = sender.auth;
    projectId = sender.project.id;
    other = (await m.verifiedDomain('other.test')).auth;
    await upsertContacts({
      db: m.t.ctx.db,
      consent: { type: 'api' },
      projectId,
      rows: [
        { email: 'a@dest.test', defaultSubscribed: true, patch: { plan: 'pro', firstName: 'Ann' } },
        { email: 'b@dest.test', defaultSubscribed: true, patch: { plan: 'pro' } },
        { email: 'c@dest.test', defaultSubscribed: true, patch: { plan: 'free' } },
        { email: 'd@dest.test', defaultSubscribed: false, patch: { plan: 'pro' } },
        { email: 'e@dest.test', defaultSubscribed: true, patch: { plan: 'pro' } },
      ],
    });
    await req('POST', '/contacts', { email: 'x@dest.test' }, other);
    await m.t.ctx.db.execute(
      sql`INSERT INTO suppressions (id, project_id, email, reason) VALUES (gen_random_uuid(), ${projectId}::uuid,
        'e@dest.test', 'BOUNCE')`,
    );
  });
  afterAll(() => m.close());

  it('creates a DRAFT with every field, and recipientCount counts subscribed, unsuppressed contacts now', async () => {
    const created = await create({ description: 'd', fromName: 'Acme', replyTo: 'reply@example.test' });
    expect(created).toMatchObject({
      ...base,
      description: 'd',
      fromName: 'Acme',
      replyTo: 'reply@example.test',
      type: 'ALL',
      segmentId: null,
      audienceFilter: null,
      status: 'DRAFT',
      scheduledAt: null,
      sentAt: null,
      recipientCount: 3,
    });
    expect(campaignShape.parse((await req('GET', `/campaigns/${created.id}`)).json().data)).toEqual(created);
    const list = (await req('GET', '/campaigns?status=DRAFT')).json().data;
    expect(list.items.map((c: { id: string }) => c.id)).toContain(created.id);
    expect((await req('GET', '/campaigns?status=SENT')).json().data.total).toBe(0);
  });

  it('audiences: SEGMENT needs an existing segment, FILTERED a valid filter', async () => {
    const segment = (
      await req('POST', '/segments', { name: 'pro', filter: { field: 'data.plan', operator: 'equals', value: 'pro' } })
    ).json().data;
    expect(segment.memberCount).toBe(4);
    const bySegment = await create({ audienceType: 'SEGMENT', segmentId: segment.id });
    expect(bySegment).toMatchObject({ type: 'SEGMENT', segmentId: segment.id, recipientCount: 2 });
    const filtered = await create({
      audienceType: 'FILTERED',
      audienceFilter: {
        all: [
          { segment: segment.id, operator: 'member' },
          { field: 'email', operator: 'startsWith', value: 'a' },
        ],
      },
    });
    expect(filtered.recipientCount).toBe(1);
    expectValidation(await req('POST', '/campaigns', { ...base, audienceType: 'SEGMENT' }), 'segmentId');
    expectValidation(
      await req('POST', '/campaigns', {
        ...base,
        audienceType: 'SEGMENT',
        segmentId: '01890000-0000-7000-8000-000000000000',
      }),
      'segmentId',
    );
    expectValidation(await req('POST', '/campaigns', { ...base, audienceType: 'FILTERED' }), 'audienceFilter');
    expectValidation(
      await req('POST', '/campaigns', {
        ...base,
        audienceType: 'FILTERED',
        audienceFilter: { all: [{ field: 'plan', operator: 'equals', value: 1 }] },
      }),
      'audienceFilter.all.0.field',
    );
    expectValidation(
      await req(
        'POST',
        '/campaigns',
        { ...base, from: 'news@other.test', audienceType: 'SEGMENT', segmentId: segment.id },
        other,
      ),
      'segmentId',
    );
    // A segment an unsent campaign uses cannot be deleted.
    expectError(await req('DELETE', `/segments/${segment.id}`), 409, 'CONFLICT');
    const patched = await req('PATCH', `/campaigns/${bySegment.id}`, { audienceType: 'ALL' });
    expect(patched.json().data).toMatchObject({ type: 'ALL', segmentId: null, recipientCount: 3 });
    await req('DELETE', `/campaigns/${filtered.id}`);
    expect((await req('DELETE', `/segments/${segment.id}`)).statusCode).toBe(200);
  });

  it('checks content and sender: Liquid errors are 422 with line and column, an unverified domain 403', async () => {
    const broken = expectValidation(
      await req('POST', '/campaigns', { ...base, body: '<p>\n{% if x %}never closed</p>' }),
      'body',
    );
    expect(broken.message).toMatch(/line \d+/);
    expectValidation(await req('POST', '/campaigns', { ...base, subject: 'Hi {{ name ' }), 'subject');
    expectValidation(await req('POST', '/campaigns', { ...base, subject: 'two\nlines' }), 'subject');
    expectValidation(await req('POST', '/campaigns', { ...base, audienceType: 'SOME' }), 'audienceType');
    expectError(await req('POST', '/campaigns', { ...base, from: 'news@elsewhere.test' }), 403, 'DOMAIN_NOT_VERIFIED');
    const draft = await create();
    expectError(await req('PATCH', `/campaigns/${draft.id}`, { from: 'x@elsewhere.test' }), 403, 'DOMAIN_NOT_VERIFIED');
    expectValidation(await req('PATCH', `/campaigns/${draft.id}`, { body: '{{ }' }), 'body');
  });

  it(
    'DRAFT: send now → SENDING, a future time → SCHEDULED, a past one → 422; cancel → ' +
      '409; edit and delete allowed',
    async () => {
      const draft = await create();
      expectValidation(
        await req('POST', `/campaigns/${draft.id}/send`, { scheduledFor: new Date(Date.now() - 60_000).toISOString() }),
        'scheduledFor',
      );
      expectValidation(await req('POST', `/campaigns/${draft.id}/send`, { scheduledFor: 'tomorrow' }), 'scheduledFor');
      expectError(await req('POST', `/campaigns/${draft.id}/cancel`), 409, 'CONFLICT');
      expect((await req('PATCH', `/campaigns/${draft.id}`, { name: 'Renamed' })).json().data.name).toBe('Renamed');
      const sent = await req('POST', `/campaigns/${draft.id}/send`);
      expect(sent.statusCode).toBe(202);
      expect(sent.body).toBe('');
      const sending = (await req('GET', `/campaigns/${draft.id}`)).json().data;
      expect(sending).toMatchObject({ status: 'SENDING', scheduledAt: null });
      expect(sending.sentAt).not.toBeNull();

      const scheduledFor = new Date(Date.now() + 3_600_000).toISOString();
      const other = await create();
      expect((await req('POST', `/campaigns/${other.id}/send`, { scheduledFor })).statusCode).toBe(202);
      expect((await req('GET', `/campaigns/${other.id}`)).json().data).toMatchObject({
        status: 'SCHEDULED',
        scheduledAt: scheduledFor,
        sentAt: null,
      });
      const removable = await create();
      expect((await req('DELETE', `/campaigns/${removable.id}`)).json()).toEqual({
        success: true,
        data: { id: removable.id, deleted: true },
      });
      expectError(await req('GET', `/campaigns/${removable.id}`), 404, 'NOT_FOUND');
    },
  );

  it('SCHEDULED: reschedule, unschedule, send now, edit, cancel allowed; delete refused', async () => {
    const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    const a = await create();
    await req('POST', `/campaigns/${a.id}/send`, { scheduledFor: later(60) });
    const moved = later(120);
    expect((await req('POST', `/campaigns/${a.id}/send`, { scheduledFor: moved })).statusCode).toBe(202);
    expect((await req('GET', `/campaigns/${a.id}`)).json().data.scheduledAt).toBe(moved);
    expect((await req('PATCH', `/campaigns/${a.id}`, { subject: 'Changed' })).json().data).toMatchObject({
      subject: 'Changed',
      status: 'SCHEDULED',
    });
    const refused = expectError(await req('DELETE', `/campaigns/${a.id}`), 409, 'CONFLICT');
    expect(refused.error.suggestion).toContain('Unschedule');
    expect((await req('POST', `/campaigns/${a.id}/send`)).statusCode).toBe(202);
    expect(await status(a.id)).toBe('SENDING');

    const b = await create();
    await req('POST', `/campaigns/${b.id}/send`, { scheduledFor: later(60) });
    expect((await req('POST', `/campaigns/${b.id}/cancel`)).statusCode).toBe(202);
    expect(await status(b.id)).toBe('CANCELLED');

    // Unschedule: back to an editable, deletable DRAFT with no time; its pending start does nothing.
    const c = await create();
    await req('POST', `/campaigns/${c.id}/send`, { scheduledFor: later(60) });
    const unscheduled = await req('POST', `/campaigns/${c.id}/unschedule`);
    expect(unscheduled.statusCode, unscheduled.body).toBe(200);
    expect(campaignShape.parse(unscheduled.json().data)).toMatchObject({
      id: c.id,
      status: 'DRAFT',
      scheduledAt: null,
      sentAt: null,
      recipientCount: 3,
    });
    expectError(await req('POST', `/campaigns/${c.id}/unschedule`), 409, 'CONFLICT');
    expect((await req('DELETE', `/campaigns/${c.id}`)).statusCode).toBe(200);
  });

  it('unschedule is a 409 in every status but SCHEDULED, a 404 for no campaign', async () => {
    const draft = await create();
    expectError(await req('POST', `/campaigns/${draft.id}/unschedule`), 409, 'CONFLICT');
    for (const to of ['SENDING', 'SENT', 'CANCELLED']) {
      const c = await create();
      await force(c.id, to);
      const body = expectError(await req('POST', `/campaigns/${c.id}/unschedule`), 409, 'CONFLICT');
      expect(body.error.message).toContain(to);
      expect(await status(c.id)).toBe(to);
    }
    expectError(await req('POST', '/campaigns/01890000-0000-7000-8000-000000000000/unschedule'), 404, 'NOT_FOUND');
    expectError(await req('POST', '/campaigns/not-an-id/unschedule'), 404, 'NOT_FOUND');
  });

  it(
    'duplicate: a DRAFT "(copy)" with the content, audience and sender of a campaign ' +
      'in any status, and no schedule',
    async () => {
      const segment = (
        await req('POST', '/segments', {
          name: 'Pros',
          filter: { field: 'data.plan', operator: 'equals', value: 'pro' },
        })
      ).json().data;
      const original = await create({
        name: 'Launch',
        description: 'd',
        fromName: 'Acme',
        replyTo: 'reply@example.test',
        audienceType: 'SEGMENT',
        segmentId: segment.id,
      });
      await req('POST', `/campaigns/${original.id}/send`, {
        scheduledFor: new Date(Date.now() + 3_600_000).toISOString(),
      });
      for (const to of ['SCHEDULED', 'SENDING', 'SENT', 'CANCELLED', 'DRAFT']) {
        await force(original.id, to);
        const res = await req('POST', `/campaigns/${original.id}/duplicate`);
        expect(res.statusCode, res.body).toBe(201);
        const copy = campaignShape.parse(res.json().data);
        expect(copy).toMatchObject({
          name: 'Launch (copy)',
          description: 'd',
          subject: base.subject,
          body: base.body,
          from: base.from,
          fromName: 'Acme',
          replyTo: 'reply@example.test',
          audienceType: 'SEGMENT',
          segmentId: segment.id,
          status: 'DRAFT',
          scheduledAt: null,
          sentAt: null,
          recipientCount: 2,
        });
        expect(copy.id).not.toBe(original.id);
      }
      // The copy names the segment like the original: the segment cannot be deleted from under it.
      await force(original.id, 'SENT');
      expectError(await req('DELETE', `/segments/${segment.id}`), 409, 'CONFLICT');
      expectError(await req('POST', '/campaigns/01890000-0000-7000-8000-000000000000/duplicate'), 404, 'NOT_FOUND');
      expectError(await req('POST', `/campaigns/${original.id}/duplicate`, undefined, other), 404, 'NOT_FOUND');
    },
  );

  it('SENDING: cancel allowed; send, edit, delete refused. SENT and CANCELLED: only delete allowed', async () => {
    const sending = await create();
    await req('POST', `/campaigns/${sending.id}/send`);
    expectError(await req('POST', `/campaigns/${sending.id}/send`), 409, 'CONFLICT');
    expectError(await req('PATCH', `/campaigns/${sending.id}`, { name: 'x' }), 409, 'CONFLICT');
    expectError(await req('DELETE', `/campaigns/${sending.id}`), 409, 'CONFLICT');
    expect((await req('POST', `/campaigns/${sending.id}/cancel`)).statusCode).toBe(202);

    const sent = await create();
    await req('POST', `/campaigns/${sent.id}/send`);
    await force(sent.id, 'SENT');
    for (const id of [sending.id, sent.id]) {
      expectError(await req('POST', `/campaigns/${id}/send`), 409, 'CONFLICT');
      expectError(
        await req('POST', `/campaigns/${id}/send`, { scheduledFor: new Date(Date.now() + 60_000).toISOString() }),
        409,
        'CONFLICT',
      );
      expectError(await req('POST', `/campaigns/${id}/cancel`), 409, 'CONFLICT');
      expectError(await req('PATCH', `/campaigns/${id}`, { name: 'x' }), 409, 'CONFLICT');
    }
    expect(await status(sending.id)).toBe('CANCELLED');
    expect(await status(sent.id)).toBe('SENT');
    for (const id of [sending.id, sent.id]) {
      expect((await req('DELETE', `/campaigns/${id}`)).json()).toEqual({ success: true, data: { id, deleted: true } });
      expectError(await req('GET', `/campaigns/${id}`), 404, 'NOT_FOUND');
    }
  });

  it('test send: [TEST] subject, no contact created, not in stats', async () => {
    const campaign = await create();
    const res = await req('POST', `/campaigns/${campaign.id}/test`, { emails: ['Preview@Team.test', 'e@dest.test'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.emails).toMatchObject([
      { to: 'preview@team.test', status: 'QUEUED' },
      { to: 'e@dest.test', status: 'SUPPRESSED' },
    ]);
    const email = (await req('GET', `/emails/${res.json().data.emails[0].email}`)).json().data;
    expect(email).toMatchObject({
      subject: '[TEST] Hello there',
      source: { type: 'TEST', id: campaign.id },
      contactId: null,
      status: 'QUEUED',
    });
    expect((await req('GET', '/contacts?email=preview@team.test')).json().data.total).toBe(0);
    expect((await req('GET', `/campaigns/${campaign.id}/stats`)).json().data).toEqual({
      recipients: 0,
      sent: 0,
      delivered: 0,
      opened: 0,
      humanOpened: 0,
      clicked: 0,
      humanClicked: 0,
      bounced: 0,
      complained: 0,
      unsubscribed: 0,
      failed: 0,
      suppressed: 0,
      suppressedByReason: {},
      openRate: 0,
      clickRate: 0,
      bounceRate: 0,
      complaintRate: 0,
    });
    expectValidation(await req('POST', `/campaigns/${campaign.id}/test`, { emails: [] }), 'emails');
  });

  it(
    "test send renders with a contact's data: the address's own contact, or the one " + 'picked; sample data over it',
    async () => {
      const campaign = await create({
        subject: 'For {{ firstName ?? "you" }}',
        body: '<p>{{ firstName ?? "nobody" }} on {{ plan ?? "no plan" }}, {{ email }}</p>',
      });
      const content = async (id: string) =>
        (await req('GET', `/emails/${id}/content`)).json().data as { subject: string; html: string };
      const send = async (payload: Record<string, unknown>) => {
        const res = await req('POST', `/campaigns/${campaign.id}/test`, payload);
        expect(res.statusCode, res.body).toBe(200);
        return Promise.all((res.json().data.emails as { email: string }[]).map((e) => content(e.email)));
      };
      // a@dest.test is a contact (Ann, pro); the other address is not.
      const [own, stranger] = await send({ emails: ['A@dest.test', 'nobody@team.test'] });
      expect(own).toMatchObject({ subject: '[TEST] For Ann', html: '<p>Ann on pro, a@dest.test</p>' });
      expect(stranger).toMatchObject({ subject: '[TEST] For you', html: '<p>nobody on no plan, nobody@team.test</p>' });
      const contactC = (await req('GET', '/contacts?email=c@dest.test')).json().data.items[0].id as string;
      const [picked] = await send({ emails: ['me@team.test'], contactId: contactC, data: { firstName: 'Sample' } });
      expect(picked).toMatchObject({ subject: '[TEST] For Sample', html: '<p>Sample on free, me@team.test</p>' });
      const [sample] = await send({ emails: ['me@team.test'], data: { plan: 'gold' } });
      expect(sample!.html).toBe('<p>nobody on gold, me@team.test</p>');
      expectError(
        await req('POST', `/campaigns/${campaign.id}/test`, {
          emails: ['me@team.test'],
          contactId: '01890000-0000-7000-8000-000000000000',
        }),
        404,
        'NOT_FOUND',
      );
      expectValidation(
        await req('POST', `/campaigns/${campaign.id}/test`, { emails: ['me@team.test'], data: [1] }),
        'data',
      );
      expect((await req('GET', '/contacts?email=me@team.test')).json().data.total).toBe(0);
    },
  );

  it("keeps projects apart: another project's campaign answers 404 everywhere", async () => {
    const mine = await create();
    const missing = await req('GET', '/campaigns/01890000-0000-7000-8000-000000000000', undefined, other);
    expect(stableError(await req('GET', `/campaigns/${mine.id}`, undefined, other))).toEqual(stableError(missing));
    for (const [method, url] of [
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/send'],
      ['POST', '/cancel'],
      ['POST', '/unschedule'],
      ['POST', '/duplicate'],
      ['GET', '/stats'],
    ] as const) {
      expectError(
        await req(method, `/campaigns/${mine.id}${url}`, method === 'PATCH' ? { name: 'x' } : undefined, other),
        404,
        'NOT_FOUND',
      );
    }
    expectError(await req('POST', `/campaigns/${mine.id}/test`, { emails: ['a@b.test'] }, other), 404, 'NOT_FOUND');
    expectError(await req('GET', '/campaigns/not-an-id', undefined, other), 404, 'NOT_FOUND');
    expect(await status(mine.id)).toBe('DRAFT');
  });
});
