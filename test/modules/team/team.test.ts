// A project's team: invitations (single use, 7 days, withdrawable), roles enforced on every route with a 403 naming
// the role, and the rules that keep a project owned.
import fs from 'node:fs';
import path from 'node:path';
import { addLocalSenderDomain } from '../../../src/modules/domains/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';
import { firstUser, invitedMember, PASSWORD, signIn, type Person } from '../../support/people.ts';

describe('team', () => {
  let t: TestApp;
  let owner: Person;
  let project: string;
  let admin: Person;
  let editor: Person;
  let viewer: Person;

  beforeAll(async () => {
    t = await createTestApp();
    project = (await t.createProject('Team project')).id;
    owner = await firstUser(t);
    admin = await invitedMember(t, owner, project, 'admin@example.com', 'admin');
    editor = await invitedMember(t, owner, project, 'editor@example.com', 'editor');
    viewer = await invitedMember(t, owner, project, 'viewer@example.com', 'viewer');
  });
  afterAll(() => t.close());

  it('lists the members with their roles', async () => {
    const res = await viewer.call('GET', '/team', { project });
    expect(res.statusCode).toBe(200);
    const roles = Object.fromEntries(res.json().data.map((m: { email: string; role: string }) => [m.email, m.role]));
    expect(roles).toEqual({
      'owner@example.com': 'owner',
      'admin@example.com': 'admin',
      'editor@example.com': 'editor',
      'viewer@example.com': 'viewer',
    });
    expect(res.json().data[0]).toMatchObject({
      twoFactor: false,
      joinedAt: expect.any(String),
      lastActiveAt: expect.any(String),
    });
  });

  it('answers the invite link to the inviter, and mails it through the system sender', async () => {
    // Without a verified domain for herald@herald.localhost, the invitation is answered only: the local sender the
    // project started with (the instance sends to the outbox) is removed first.
    const domains = (await owner.call('GET', '/domains', { project })).json().data.items as { id: string }[];
    for (const { id } of domains) {
      expect((await owner.call('DELETE', `/domains/${id}`, { project })).statusCode).toBe(200);
    }
    const unmailed = await owner.call('POST', '/team/invites', {
      project,
      payload: { email: 'unmailed@example.com', role: 'viewer' },
    });
    expect(unmailed.json().data).toMatchObject({ mailed: false, inviteUrl: expect.any(String) });
    await addLocalSenderDomain({ ctx: t.ctx, projectId: project });
    const res = await owner.call('POST', '/team/invites', {
      project,
      payload: { email: 'New.Person@Example.com', role: 'viewer' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      email: 'new.person@example.com',
      role: 'viewer',
      mailed: true,
      inviteUrl: expect.stringMatching(/^http:\/\/localhost:\d+\/invite#[\w-]{43}$/),
    });
    const outbox = path.join(t.ctx.config.dataDir, 'outbox');
    const mail = fs
      .readdirSync(outbox)
      .map((file) => fs.readFileSync(path.join(outbox, file), 'utf8'))
      .find((text) => text.includes('To: new.person@example.com'));
    expect(mail).toContain('From: Herald <herald@herald.localhost>');
    expect(mail).toContain('DKIM-Signature:');
    expect(mail!.replace(/=\r\n/g, '')).toContain(res.json().data.inviteUrl);
    const open = await admin.call('GET', '/team/invites', { project });
    expect(open.json().data.map((i: { email: string }) => i.email)).toContain('new.person@example.com');
  });

  it('refuses a used, withdrawn or unknown invitation (410)', async () => {
    const invite = await owner.call('POST', '/team/invites', {
      project,
      payload: { email: 'once@example.com', role: 'viewer' },
    });
    const token = new URL(invite.json().data.inviteUrl).hash.slice(1);
    const accept = () =>
      t.app.inject({
        method: 'POST',
        url: '/auth/accept-invite',
        payload: { token, name: 'Once', password: PASSWORD },
      });
    expect((await accept()).statusCode).toBe(200);
    expectError(await accept(), 410, 'GONE');

    const withdrawn = await owner.call('POST', '/team/invites', {
      project,
      payload: { email: 'withdrawn@example.com', role: 'viewer' },
    });
    expect((await owner.call('DELETE', `/team/invites/${withdrawn.json().data.id}`, { project })).statusCode).toBe(200);
    const wToken = new URL(withdrawn.json().data.inviteUrl).hash.slice(1);
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/auth/accept-invite',
        payload: { token: wToken, name: 'W', password: PASSWORD },
      }),
      410,
      'GONE',
    );
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/auth/accept-invite',
        payload: { token: 'made-up', name: 'W', password: PASSWORD },
      }),
      410,
      'GONE',
    );
  });

  it('refuses an expired invitation (410)', async () => {
    const invite = await owner.call('POST', '/team/invites', {
      project,
      payload: { email: 'late@example.com', role: 'viewer' },
    });
    await t.ctx.db.execute(
      `UPDATE invites SET expires_at = now() - interval '1 second' WHERE id = '${invite.json().data.id}'` as never,
    );
    const token = new URL(invite.json().data.inviteUrl).hash.slice(1);
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/auth/accept-invite',
        payload: { token, name: 'Late', password: PASSWORD },
      }),
      410,
      'GONE',
    );
  });

  it('keeps an editor from creating a key, naming the role (403)', async () => {
    const res = expectError(
      await editor.call('POST', '/api-keys', { project, payload: { type: 'secret', name: 'mine' } }),
      403,
      'FORBIDDEN',
    );
    expect(res.error.message).toMatch(/You are an editor of this project: POST \/api-keys needs the admin role/);
    expect(
      (await admin.call('POST', '/api-keys', { project, payload: { type: 'secret', name: 'ci' } })).statusCode,
    ).toBe(201);
  });

  it('lets a viewer read but not write, nor export contacts', async () => {
    expect(
      (await editor.call('POST', '/contacts', { project, payload: { email: 'reader@example.com' } })).statusCode,
    ).toBe(201);
    expect((await viewer.call('GET', '/contacts', { project })).statusCode).toBe(200);
    expectError(
      await viewer.call('POST', '/contacts', { project, payload: { email: 'x@example.com' } }),
      403,
      'FORBIDDEN',
    );
    const exported = expectError(await viewer.call('GET', '/contacts/export', { project }), 403, 'FORBIDDEN');
    expect(exported.error.message).toMatch(/viewer/);
  });

  it('keeps an admin from demoting or removing an owner, and anyone from raising their own role (403)', async () => {
    const ownerId = (await owner.call('GET', '/auth/session')).json().data.user.id;
    const editorId = (await editor.call('GET', '/auth/session')).json().data.user.id;
    expectError(
      await admin.call('PATCH', `/team/${ownerId}`, { project, payload: { role: 'viewer' } }),
      403,
      'FORBIDDEN',
    );
    expectError(await admin.call('DELETE', `/team/${ownerId}`, { project }), 403, 'FORBIDDEN');
    expectError(
      await editor.call('PATCH', `/team/${editorId}`, { project, payload: { role: 'admin' } }),
      403,
      'FORBIDDEN',
    );
    const adminId = (await admin.call('GET', '/auth/session')).json().data.user.id;
    expectError(
      await admin.call('PATCH', `/team/${adminId}`, { project, payload: { role: 'owner' } }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await admin.call('POST', '/team/invites', { project, payload: { email: 'boss@example.com', role: 'owner' } }),
      403,
      'FORBIDDEN',
    );
  });

  it('keeps the last owner (409), and lets members leave', async () => {
    const ownerId = (await owner.call('GET', '/auth/session')).json().data.user.id;
    expectError(await owner.call('DELETE', `/team/${ownerId}`, { project }), 409, 'CONFLICT');
    expectError(
      await owner.call('PATCH', `/team/${ownerId}`, { project, payload: { role: 'admin' } }),
      409,
      'CONFLICT',
    );
    const leaver = await invitedMember(t, owner, project, 'leaver@example.com', 'viewer');
    const leaverId = (await leaver.call('GET', '/auth/session')).json().data.user.id;
    expect((await leaver.call('DELETE', `/team/${leaverId}`, { project })).statusCode).toBe(200);
    expectError(await leaver.call('GET', '/contacts', { project }), 404, 'NOT_FOUND');
  });

  it('keeps a member of one project out of another (404)', async () => {
    const other = (await t.createProject('Other project')).id;
    expectError(await editor.call('GET', '/contacts', { project: other }), 404, 'NOT_FOUND');
    // An instance admin opens any project as its owner.
    expect((await owner.call('GET', '/contacts', { project: other })).statusCode).toBe(200);
  });

  it('lets an existing user accept an invitation while signed in', async () => {
    const other = (await t.createProject('Second')).id;
    const invite = await owner.call('POST', '/team/invites', {
      project: other,
      payload: { email: 'editor@example.com', role: 'viewer' },
    });
    const token = new URL(invite.json().data.inviteUrl).hash.slice(1);
    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/auth/accept-invite',
      payload: { token, name: 'E', password: PASSWORD },
    });
    expectError(signedOut, 409, 'CONFLICT');
    const me = await signIn(t, 'editor@example.com');
    expect((await me.call('POST', '/auth/accept-invite', { payload: { token } })).statusCode).toBe(200);
    expect((await me.call('GET', '/contacts', { project: other })).statusCode).toBe(200);
  });
});
