// The audit log: every change through the API names who made it (a user, a key, the admin token), what it was and
// which fields changed — never a secret, and for contacts only the names of fields — readable by owners, admins and
// full keys, filtered, and instance-wide for admins.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredEntries } from '../../../src/modules/audit/audit.service.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';
import { firstUser, invitedMember, type Person } from '../../support/people.ts';

interface Entry {
  action: string;
  actor: { type: string; id: string | null; label: string };
  resourceId: string | null;
  changes: Record<string, [unknown, unknown]> | null;
  requestId: string | null;
  ip: string | null;
}

describe('audit log', () => {
  let t: TestApp;
  let owner: Person;
  let editor: Person;
  let project: { id: string; secretKey: string; auth: { authorization: string } };

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Audited');
    owner = await firstUser(t);
    editor = await invitedMember(t, owner, project.id, 'editor@example.com', 'editor');
  });
  afterAll(() => t.close());

  const entries = async (query = '') => {
    const res = await owner.call('GET', `/audit-log?limit=100${query}`, { project: project.id });
    expect(res.statusCode).toBe(200);
    return res.json().data.items as Entry[];
  };

  it('names the user, the request and the fields of a key they create, never the key', async () => {
    const created = await owner.call('POST', '/api-keys', {
      project: project.id,
      payload: { type: 'secret', name: 'deploy', scope: 'sending' },
    });
    expect(created.statusCode).toBe(201);
    const [entry] = await entries('&action=key.created');
    expect(entry).toMatchObject({
      action: 'key.created',
      resourceId: created.json().data.id,
      requestId: created.headers['x-request-id'],
      actor: { type: 'user', label: 'owner@example.com' },
      changes: { name: [null, 'deploy'], scope: [null, 'sending'] },
    });
    const all = JSON.stringify(await entries());
    expect(all).not.toContain(created.json().data.key);

    const revoked = await owner.call('DELETE', `/api-keys/${created.json().data.id}`, { project: project.id });
    expect(revoked.statusCode).toBe(200);
    expect((await entries('&action=key.revoked'))[0]).toMatchObject({ resourceId: created.json().data.id });
  });

  it("records a key's changes as the key, and a contact's as the names of its fields only", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: project.auth,
      payload: { email: 'private.person@example.com', data: { plan: 'gold' } },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id;
    await t.app.inject({
      method: 'PATCH',
      url: `/contacts/${id}`,
      headers: project.auth,
      payload: { data: { city: 'Lyon' } },
    });
    const contact = await entries(`&resourceType=contact&resourceId=${id}`);
    expect(contact.map((e) => e.action)).toEqual(['contact.updated', 'contact.created']);
    expect(contact[0]!.actor).toMatchObject({ type: 'key', label: expect.stringMatching(/^Secret key \(sk_/) });
    expect(contact[0]!.changes).toEqual({ 'data.city': ['[redacted]', '[redacted]'] });
    const text = JSON.stringify(contact);
    for (const personal of ['private.person', 'gold', 'Lyon']) expect(text).not.toContain(personal);
  });

  it('records what an editor creates, as the editor', async () => {
    const topic = await editor.call('POST', '/topics', {
      project: project.id,
      payload: { name: 'News', defaultSubscription: 'OPT_IN' },
    });
    expect(topic.statusCode).toBe(201);
    const [entry] = await entries('&resourceType=topic');
    expect(entry).toMatchObject({
      action: 'topic.created',
      resourceId: topic.json().data.id,
      actor: { type: 'user', label: 'editor@example.com' },
    });
  });

  it('records sign-ins, team changes and the admin token, and filters by actor, action and time', async () => {
    const editorId = (await editor.call('GET', '/auth/session')).json().data.user.id;
    await owner.call('PATCH', `/team/${editorId}`, { project: project.id, payload: { role: 'viewer' } });
    const [change] = await entries('&action=member.role_changed');
    expect(change).toMatchObject({ resourceId: editorId, changes: { role: ['editor', 'viewer'] } });
    const byEditor = await entries('&actor=editor@example.com');
    expect(byEditor.every((e) => e.actor.label === 'editor@example.com')).toBe(true);
    expect(await entries(`&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);

    await t.app.inject({
      method: 'PATCH',
      url: `/admin/projects/${project.id}`,
      headers: t.admin,
      payload: { name: 'Audited, renamed' },
    });
    const admin = await t.app.inject({
      method: 'GET',
      url: `/admin/audit-log?projectId=${project.id}&action=project.`,
      headers: t.admin,
    });
    expect(admin.json().data.items[0]).toMatchObject({
      action: 'project.updated',
      actor: { type: 'admin', label: 'admin token' },
      changes: { name: ['Audited', 'Audited, renamed'] },
    });
    const signIns = await t.app.inject({
      method: 'GET',
      url: '/admin/audit-log?action=user.signed_in',
      headers: t.admin,
    });
    expect(signIns.json().data.total).toBeGreaterThanOrEqual(2);
  });

  it('is for owners, admins and full keys: not editors, viewers or restricted keys (403)', async () => {
    expectError(await editor.call('GET', '/audit-log', { project: project.id }), 403, 'FORBIDDEN');
    const read = (
      await owner.call('POST', '/api-keys', {
        project: project.id,
        payload: { type: 'secret', name: 'reader', scope: 'read' },
      })
    ).json().data.key;
    expectError(
      await t.app.inject({ method: 'GET', url: '/audit-log', headers: { authorization: `Bearer ${read}` } }),
      403,
      'FORBIDDEN',
    );
    expect((await t.app.inject({ method: 'GET', url: '/audit-log', headers: project.auth })).statusCode).toBe(200);
    expectError(
      await t.app.inject({ method: 'GET', url: '/admin/audit-log', headers: project.auth }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('has no route that changes or deletes entries', async () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE'] as const) {
      const res = await owner.call(method, '/audit-log', { project: project.id, payload: {} });
      expect([404, 405]).toContain(res.statusCode);
    }
  });

  it('keeps entries RETENTION_AUDIT_DAYS: older ones are deleted, newer ones stay', async () => {
    const before = (await entries()).length;
    await t.ctx.db.execute(sql`UPDATE audit_log SET at = now() - interval '400 days' WHERE action = 'topic.created'`);
    const deleted = await deleteExpiredEntries({ db: t.ctx.db, days: t.ctx.config.auditRetentionDays });
    expect(deleted).toBe(1);
    const after = await entries();
    expect(after.map((e) => e.action)).not.toContain('topic.created');
    expect(after.length).toBe(before - 1);
  });
});
