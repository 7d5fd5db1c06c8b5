// Erasure: deleting a contact removes its address from its emails' records, which stay for counts
// (status, timestamps, campaign figures); a suppression of the address stays; other contacts' emails are untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };
const GONE = 'gone@dest.test';
const ERASED = 'erased@erased.invalid';

describe('contact erasure', () => {
  let m: MailFixture;
  let auth: Auth;
  const req = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    m.t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
  const data = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const res = await req(method, url, payload);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.body ? res.json().data : null;
  };
  const send = async (payload: object, statuses = ['SENT']): Promise<string[]> => {
    const sent = await data('POST', '/v1/send', {
      from: 'app@erase.test',
      subject: 'Hello {{email}}',
      body: '<p>Hi {{email}}</p>',
      ...payload,
    });
    const ids = [...new Set((sent.emails as { email: string }[]).map((e) => e.email))];
    for (const id of ids) await m.waitForStatus(auth, id, statuses);
    return ids;
  };

  beforeAll(async () => {
    m = await startMailFixture();
    auth = (await m.verifiedDomain('erase.test')).auth;
  });
  afterAll(() => m.close());

  it(
    'keeps the records, statuses, timestamps and campaign figures; the address and ' +
      'its content go; the suppression stays',
    async () => {
      for (const email of [GONE, 'stay1@dest.test', 'stay2@dest.test'])
        await data('POST', '/contacts', { email, subscribed: true, data: { firstName: email.split('@')[0] } });
      const campaign = (
        await data('POST', '/campaigns', {
          name: 'News',
          audienceType: 'ALL',
          subject: 'News for {{firstName}}',
          body: '<p>Hello {{firstName}}</p>',
          from: 'news@erase.test',
        })
      ).id as string;
      await data('POST', `/campaigns/${campaign}/send`);
      await until(async () => (await data('GET', `/campaigns/${campaign}`)).status === 'SENT', 'campaign SENT', 30_000);
      const [alone] = await send({
        to: GONE,
        attachments: [{ filename: 'note.txt', content: Buffer.from(`for ${GONE}`).toString('base64') }],
      });
      const [copied] = await send({ to: 'stay1@dest.test', cc: GONE });
      const [later] = await send({ to: GONE, scheduledAt: new Date(Date.now() + 86_400_000).toISOString() }, [
        'SCHEDULED',
      ]);
      await data('POST', '/suppressions', { email: GONE, reason: 'MANUAL' });
      const contact = (await data('GET', `/contacts?email=${encodeURIComponent(GONE)}`)).items[0];
      const stats = await data('GET', `/campaigns/${campaign}/stats`);
      const before = (await data('GET', '/emails?limit=100')).items as Record<string, unknown>[];
      const campaignEmail = before.find(
        (e) => e.source && (e.source as { id: string }).id === campaign && e.to === GONE,
      )!;
      expect(before.filter((e) => JSON.stringify(e).includes(GONE))).toHaveLength(4);

      expect(await data('DELETE', `/contacts/${contact.id}`)).toEqual({ id: contact.id, deleted: true });

      const after = (await data('GET', '/emails?limit=100')).items as Record<string, unknown>[];
      expect(after.map((e) => e.id)).toEqual(before.map((e) => e.id));
      expect(JSON.stringify(after)).not.toContain(GONE);
      expect((await data('GET', `/emails?to=${encodeURIComponent(GONE)}`)).total).toBe(0);
      // Its sent emails: the same record with the address erased, and no content left to show.
      for (const id of [campaignEmail.id as string, alone!]) {
        const email = await data('GET', `/emails/${id}`);
        const was = before.find((e) => e.id === id)!;
        expect(email).toEqual({ ...was, to: ERASED, subject: String(was.subject).replace(GONE, ERASED) });
        expect(JSON.stringify(email)).not.toContain(GONE);
        for (const part of ['content', 'source']) {
          const res = await req('GET', `/emails/${id}/${part}`);
          expect(res.statusCode).toBe(410);
          expect(res.json().error.message).toContain('with its contact');
        }
      }
      // Its unsent email is cancelled (it can no longer go anywhere).
      expect(await data('GET', `/emails/${later}`)).toMatchObject({
        to: ERASED,
        status: 'CANCELLED',
        statusReason: 'CONTACT_DELETED',
      });
      // A message to another contact that copied it keeps its content; only the address is replaced.
      expect(await data('GET', `/emails/${copied}`)).toEqual({ ...before.find((e) => e.id === copied), cc: [ERASED] });
      expect((await data('GET', `/emails/${copied}/content`)).to).toBe('stay1@dest.test');
      // Other contacts' emails, the campaign's figures and the suppression stay as they were.
      for (const was of before.filter((e) => e.to !== GONE && e.id !== copied))
        expect(after.find((e) => e.id === was.id)).toEqual(was);
      expect(await data('GET', `/campaigns/${campaign}/stats`)).toEqual(stats);
      expect((await data('GET', '/suppressions')).items).toEqual([
        expect.objectContaining({ email: GONE, reason: 'MANUAL' }),
      ]);
      // The suppression still works: a new send to the address is not sent.
      const again = await data('POST', '/v1/send', {
        from: 'app@erase.test',
        to: GONE,
        subject: 'Again',
        body: '<p>Again</p>',
      });
      expect(again.emails[0].status).toBe('SUPPRESSED');
    },
  );

  it('erases the addresses of contacts deleted by a bulk action too', async () => {
    const addresses = ['bulk1@dest.test', 'bulk2@dest.test', 'Bulk3@Dest.test'];
    const ids: string[] = [];
    for (const email of addresses) ids.push((await data('POST', '/contacts', { email })).id as string);
    const sent = await Promise.all(addresses.map(async (to) => (await send({ to }))[0]!));
    // One message to several of them at once (the batch is erased as one set), its subject quoting two, beside an
    // address that stays.
    const [shared] = await send({
      to: 'bulk1@dest.test',
      cc: ['BULK2@dest.test', 'keep@dest.test'],
      bcc: 'bulk3@dest.test',
      subject: 'For bulk1@dest.test and Bulk2@Dest.test',
    });
    const bulk = (await data('POST', '/contacts/bulk', { action: 'delete', contactIds: ids })).id as string;
    await until(
      async () => (await data('GET', `/contacts/bulk/${bulk}`)).status === 'COMPLETED',
      'bulk delete COMPLETED',
      30_000,
    );
    for (const id of [...sent, shared!]) {
      const email = await data('GET', `/emails/${id}`);
      expect(email).toMatchObject({ to: id === shared ? [ERASED] : ERASED, status: 'SENT' });
      expect(JSON.stringify(email)).not.toMatch(/bulk[123]@dest\.test/i);
    }
    const message = await data('GET', `/emails/${shared!}`);
    expect(message.subject).toBe(`For ${ERASED} and ${ERASED}`);
    expect(message).toMatchObject({ to: [ERASED], cc: [ERASED, 'keep@dest.test'], bcc: [ERASED] });
  });

  it('answers 404 for a contact that is not there, deleted or not an id', async () => {
    const id = (await data('POST', '/contacts', { email: 'twice@dest.test' })).id as string;
    await data('DELETE', `/contacts/${id}`);
    for (const url of [`/contacts/${id}`, '/contacts/not-an-id']) {
      const res = await req('DELETE', url);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });
});
