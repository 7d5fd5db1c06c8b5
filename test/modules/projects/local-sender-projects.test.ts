// Every project made while the instance sends to the outbox starts with the local sender (herald.localhost,
// verified), so a second project of a local trial sends at once, as the first does; with a relay no project gets it.
// The local sender cannot receive mail. Real HTTP routes, a real worker writing the outbox, a real database.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

describe('the local sender of new projects', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ worker: true, env: { MAIL_TRANSPORT: 'outbox', SEND_RATE_PER_SECOND: '0' } });
  });
  afterAll(() => t.close());

  const domainsOf = async (auth: Auth) =>
    (await t.app.inject({ method: 'GET', url: '/domains', headers: auth })).json().data.items as {
      id: string;
      domain: string;
      status: string;
    }[];

  it('gives two new projects each a verified herald.localhost, and both send from it into the outbox', async () => {
    const projects = [await t.createProject('First'), await t.createProject('Second')];
    for (const project of projects) {
      expect((await domainsOf(project.auth)).map((d) => [d.domain, d.status])).toEqual([
        ['herald.localhost', 'VERIFIED'],
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: project.auth,
        payload: { to: 'ann@example.com', from: 'hello@herald.localhost', subject: 'Hi', body: '<p>Hi</p>' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().data.emails[0].email as string;
      await until(async () => {
        const email = await t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: project.auth });
        return email.json().data.status === 'SENT';
      }, `email ${id} SENT`);
      const message = fs.readFileSync(path.join(t.ctx.config.dataDir, 'outbox', `${id}.eml`), 'utf8');
      expect(message).toMatch(/^DKIM-Signature: .*d=herald\.localhost/m);
    }
  });

  it('refuses to receive mail at the local sender (409), as no MX record can point at it', async () => {
    const project = await t.createProject('Receiver');
    const [local] = await domainsOf(project.auth);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/domains/${local!.id}`,
      headers: project.auth,
      payload: { receiving: true },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.message).toBe('herald.localhost cannot receive mail: .localhost names have no MX record');
  });
});

describe('new projects with a relay', () => {
  it('start without the local sender: real servers refuse its mail', async () => {
    const t = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:2525' } });
    try {
      const project = await t.createProject('Relayed');
      const res = await t.app.inject({ method: 'GET', url: '/domains', headers: project.auth });
      expect(res.json().data.items).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
