// Retention: the daily jobs drop the content of finished emails past RETENTION_EMAIL_CONTENT_DAYS (the records and
// their counts stay, the source answers 410) and delete events past RETENTION_EVENTS_DAYS, in batches.
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailContentRetentionJob } from '../../../src/modules/emails/emails.retention.ts';
import { eventsRetentionJob } from '../../../src/modules/events/events.retention.ts';
import { startSubmissionRelay } from '../../../src/modules/relay/index.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';
import { relayTransport } from '../../support/smtp-client.ts';

type Auth = { authorization: string };
const manual = { id: 'manual', retryCount: 0, retryLimit: 0 };
const attachment = {
  filename: 'report.txt',
  content: Buffer.from('quarterly figures').toString('base64'),
  contentType: 'text/plain',
};

/** Moves rows back in time, as the clock cannot be (ids of `table`). */
async function age(t: TestApp, table: 'emails' | 'events', ids: string[], days: number): Promise<void> {
  for (const id of ids)
    await t.ctx.db.execute(
      sql`UPDATE ${sql.identifier(table)} SET created_at = now() - make_interval(days => ${days}) WHERE id =
        ${id}::uuid`,
    );
}

describe('email content retention', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  const get = (url: string, auth: Auth = sender.auth) => m.t.app.inject({ method: 'GET', url, headers: auth });
  const countRows = async (query: ReturnType<typeof sql>) =>
    Number(((await m.t.ctx.db.execute(query)) as unknown as { rows: { n: string | number }[] }).rows[0]!.n);
  /** The figures of every email created from 120 days ago to tomorrow, per campaign (aged emails included). */
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const window = `from=${day(-120)}&to=${day(1)}`;
  const metrics = async () => (await get(`/emails/metrics?groupBy=campaign&${window}`)).json().data;
  /** The email records, as GET /emails/{id} shows them. */
  const records = async (ids: string[]) =>
    Promise.all(ids.map(async (id) => (await get(`/emails/${id}`)).json().data as Record<string, unknown>));

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('keep.example.test');
  });
  afterAll(() => m.close());

  async function send(to: string[], extra: Record<string, unknown> = {}): Promise<string[]> {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: { to, from: 'app@keep.example.test', subject: 'Figures', body: '<p>The figures</p>', ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().data.emails as { email: string }[]).map((e) => e.email);
    for (const id of ids) await m.waitForStatus(sender.auth, id, ['SENT']);
    return ids;
  }

  it(
    'drops bodies and attachments of finished emails past the window, keeps records, ' + 'counts and newer content',
    async () => {
      // Two messages of one send share their attachments: the old one's content goes, the set stays for the new one.
      const [oldShared, newShared] = await send(['a@dest.test', 'b@dest.test'], { attachments: [attachment] });
      const [oldAlone] = await send(['c@dest.test'], { attachments: [attachment] });
      const [recent] = await send(['d@dest.test']);
      await age(m.t, 'emails', [oldShared!, oldAlone!], 91);
      const listedBefore = (await get('/emails')).json().data.total as number;
      const metricsBefore = await metrics();
      expect(metricsBefore.totals).toMatchObject({ sent: 4 });
      const recordsBefore = await records([oldShared!, oldAlone!]);
      const sets = sql`SELECT count(DISTINCT set_id) AS n FROM email_attachments WHERE project_id =
      ${sender.project.id}::uuid`;
      expect(await countRows(sets)).toBe(2);

      await emailContentRetentionJob.handler({}, m.t.ctx, manual);

      for (const id of [oldShared!, oldAlone!]) {
        const source = await get(`/emails/${id}/source`);
        expect(source.statusCode).toBe(410);
        expect(source.json().error).toMatchObject({ code: 'GONE', message: expect.stringContaining('retention') });
        expect((await get(`/emails/${id}/content`)).statusCode).toBe(410);
        expect((await get(`/emails/${id}`)).json().data).toMatchObject({ id, status: 'SENT', to: expect.any(String) });
      }
      for (const id of [newShared!, recent!]) expect((await get(`/emails/${id}/source`)).statusCode).toBe(200);
      expect((await get(`/emails/${newShared}/source`)).json().data.source).toContain('report.txt');
      expect(await countRows(sets)).toBe(1);
      expect((await get('/emails')).json().data.total).toBe(listedBefore);
      expect(await metrics()).toEqual(metricsBefore);
      expect(await records([oldShared!, oldAlone!])).toEqual(recordsBefore);

      // A second run finds nothing more to drop; when the newer email ages too, the shared set goes with it.
      await age(m.t, 'emails', [newShared!], 91);
      await emailContentRetentionJob.handler({}, m.t.ctx, manual);
      expect(await countRows(sets)).toBe(0);
      expect((await get(`/emails/${recent}/source`)).statusCode).toBe(200);
    },
  );

  it(
    'drops the content of campaign and SMTP relay emails, keeping their records, ' + 'opens, clicks and campaign stats',
    async () => {
      for (const email of ['camp1@dest.test', 'camp2@dest.test']) {
        expect(
          (
            await m.t.app.inject({
              method: 'POST',
              url: '/contacts',
              headers: sender.auth,
              payload: { email, subscribed: true },
            })
          ).statusCode,
        ).toBeLessThan(300);
      }
      const created = await m.t.app.inject({
        method: 'POST',
        url: '/campaigns',
        headers: sender.auth,
        payload: {
          name: 'Figures',
          subject: 'Quarterly figures',
          body: '<p>Figures <a href="https://example.test/figures">here</a></p>',
          from: 'news@keep.example.test',
          audienceType: 'ALL',
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const campaignId = created.json().data.id as string;
      expect(
        (await m.t.app.inject({ method: 'POST', url: `/campaigns/${campaignId}/send`, headers: sender.auth }))
          .statusCode,
      ).toBe(202);
      await until(
        async () => (await get(`/campaigns/${campaignId}`)).json().data.status === 'SENT',
        'the campaign SENT',
        30_000,
      );
      // camp1 opens the mail and clicks its link, through the links inside it.
      const html = String((await simpleParser((await m.sink.waitForRecipient('camp1@dest.test')).raw)).html);
      const browser = { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' };
      for (const kind of ['o', 'c']) {
        const link = new RegExp(`https://mail\\.herald\\.test(/t/${kind}/[^"]+)"`).exec(html)![1]!;
        expect((await m.t.app.inject({ method: 'GET', url: link, headers: browser })).statusCode).toBeLessThan(400);
      }
      const campaignEmails = ((await get(`/emails?sourceId=${campaignId}`)).json().data.items as { id: string }[]).map(
        (e) => e.id,
      );
      expect(campaignEmails).toHaveLength(2);

      const relay = await startSubmissionRelay(m.t.ctx, 0);
      const transport = relayTransport(relay.port, sender.project.secretKey);
      const info = await transport.sendMail({
        from: 'app@keep.example.test',
        to: 'relayed@dest.test',
        subject: 'Relayed',
        text: 'Relayed figures',
        html:
          '<p>Relayed <a href="mailto:help@keep.example.test">help</a> <a ' +
          'href="https://example.test/relayed?a=1&amp;b=2">figures</a></p>',
        headers: { 'X-Herald-Tracking': 'true' },
      });
      transport.close();
      await relay.close();
      const relayed = /queued as ([0-9a-f-]{36})$/.exec(info.response)![1]!;
      await m.waitForStatus(sender.auth, relayed, ['SENT']);
      // Its tracked link leads where the app's HTML said, read from the submitted MIME (the email keeps no HTML of its
      // own).
      const relayedHtml = String((await simpleParser((await m.sink.waitForRecipient('relayed@dest.test')).raw)).html);
      const relayedLink = /https:\/\/mail\.herald\.test(\/t\/c\/[^"]+)"/.exec(relayedHtml)![1]!;
      const relayedClick = async () => {
        const res = await m.t.app.inject({ method: 'GET', url: relayedLink, headers: browser });
        return [res.statusCode, res.headers.location];
      };
      expect(await relayedClick()).toEqual([302, 'https://example.test/relayed?a=1&b=2']);
      const mimeOf = sql`SELECT count(*) AS n FROM email_mime WHERE id = (SELECT mime_id FROM emails WHERE id =
      ${relayed}::uuid)`;
      expect(await countRows(mimeOf)).toBe(1);
      const [{ mime_id: mimeId }] = (
        (await m.t.ctx.db.execute(sql`SELECT mime_id FROM emails WHERE id = ${relayed}::uuid`)) as unknown as {
          rows: { mime_id: string }[];
        }
      ).rows as [{ mime_id: string }];

      const aged = [...campaignEmails, relayed];
      await age(m.t, 'emails', aged, 91);
      const statsBefore = (await get(`/campaigns/${campaignId}/stats`)).json().data;
      expect(statsBefore).toMatchObject({ recipients: 2, sent: 2, opened: 1, clicked: 1 });
      const metricsBefore = await metrics();
      expect(
        metricsBefore.groups.find((g: { campaignId: string | null }) => g.campaignId === campaignId),
      ).toMatchObject({
        sent: 2,
        opened: 1,
        clicked: 1,
      });
      const recordsBefore = await records(aged);
      expect(recordsBefore.find((e) => e.to === 'camp1@dest.test')).toMatchObject({ opens: 1, clicks: 1 });
      for (const id of aged) expect((await get(`/emails/${id}/source`)).statusCode).toBe(200);

      await emailContentRetentionJob.handler({}, m.t.ctx, manual);

      for (const id of aged) expect((await get(`/emails/${id}/source`)).statusCode, id).toBe(410);
      expect(await countRows(sql`SELECT count(*) AS n FROM email_mime WHERE id = ${mimeId}::uuid`)).toBe(0);
      expect((await get(`/campaigns/${campaignId}/stats`)).json().data).toEqual(statsBefore);
      expect(await metrics()).toEqual(metricsBefore);
      expect(await records(aged)).toEqual(recordsBefore);
      // camp2's link, first clicked now, still leads where it did (a body without Liquid: the same links for everyone).
      const html2 = String((await simpleParser((await m.sink.waitForRecipient('camp2@dest.test')).raw)).html);
      const link = /https:\/\/mail\.herald\.test(\/t\/c\/[^"]+)"/.exec(html2)![1]!;
      const res = await m.t.app.inject({ method: 'GET', url: link, headers: browser });
      expect([res.statusCode, res.headers.location]).toEqual([302, 'https://example.test/figures']);
      // The relayed email's targets were kept from its MIME before it went (this process remembers its links from the
      // click above, so they are read from the record: null where no click link was made, the mailto:).
      expect(
        (
          (await m.t.ctx.db.execute(sql`SELECT link_targets FROM emails WHERE id = ${relayed}::uuid`)) as unknown as {
            rows: { link_targets: unknown }[];
          }
        ).rows[0]!.link_targets,
      ).toEqual([null, 'https://example.test/relayed?a=1&b=2']);
    },
  );

  it(
    'keeps the link targets of tracked emails, and nothing else of their bodies: old ' +
      'links, the pixel and unsubscribing still work',
    async () => {
      const browser = { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' };
      /**
       * The links of a received message: its click links by their text, its open pixel and its (never rewritten)
       * unsubscribe link.
       */
      const linksOf = async (to: string) => {
        const html = String((await simpleParser((await m.sink.waitForRecipient(to)).raw)).html);
        const clicks = new Map(
          [...html.matchAll(/<a href="https:\/\/mail\.herald\.test(\/t\/c\/[^"]+)"[^>]*>([^<]+)<\/a>/g)].map((l) => [
            l[2]!,
            l[1]!,
          ]),
        );
        const pixel = /https:\/\/mail\.herald\.test(\/t\/o\/[^"]+)"/.exec(html)![1]!;
        const unsubscribe = /<a href="https:\/\/mail\.herald\.test(\/unsubscribe\/[^"]+)"/.exec(html)?.[1];
        return { clicks, pixel, unsubscribe };
      };
      const click = async (path: string) => {
        const res = await m.t.app.inject({ method: 'GET', url: path, headers: browser });
        expect(res.statusCode, res.body).toBe(302);
        return res.headers.location;
      };

      // (a) A tracked /v1/send email: links, a mailto: link (not tracked, but numbered) and an escaped query.
      const [sent] = await send(['linked@dest.test'], {
        tracking: true,
        body:
          '<p><a href="https://example.test/report?q=1&amp;r=2">report</a> <a ' +
          'href="mailto:help@example.test">help</a> <a ' +
          'href="https://example.test/more">more</a></p>',
      });
      // (b) A campaign whose link numbering differs per recipient ({% if %} around a link), with a per-recipient link,
      // a static one, the preference centre (click-tracked) and the unsubscribe link (never rewritten).
      for (const email of ['vip.reader@dest.test', 'reader@dest.test']) {
        expect(
          (
            await m.t.app.inject({
              method: 'POST',
              url: '/contacts',
              headers: sender.auth,
              payload: { email, subscribed: true },
            })
          ).statusCode,
        ).toBeLessThan(300);
      }
      const body =
        '<p>{% if email contains "vip" %}<a href="https://example.com/vip">vip</a>{% endif %}' +
        '<a href="https://example.com/?u={{ email }}">yours</a> <a href="https://example.com/static">static</a>' +
        ' <a href="{{ manageUrl }}">preferences</a> <a href="{{ unsubscribeUrl }}">unsubscribe</a></p>';
      const created = await m.t.app.inject({
        method: 'POST',
        url: '/campaigns',
        headers: sender.auth,
        payload: {
          name: 'Links',
          subject: 'Links',
          body,
          from: 'news@keep.example.test',
          audienceType: 'FILTERED',
          audienceFilter: { field: 'email', operator: 'endsWith', value: 'reader@dest.test' },
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const campaignId = created.json().data.id as string;
      expect(
        (await m.t.app.inject({ method: 'POST', url: `/campaigns/${campaignId}/send`, headers: sender.auth }))
          .statusCode,
      ).toBe(202);
      await until(
        async () => (await get(`/campaigns/${campaignId}`)).json().data.status === 'SENT',
        'the campaign SENT',
        30_000,
      );
      const campaignEmails = (await get(`/emails?sourceId=${campaignId}`)).json().data.items as {
        id: string;
        to: string;
      }[];
      expect(campaignEmails.map((e) => e.to).sort()).toEqual(['reader@dest.test', 'vip.reader@dest.test']);
      const emailTo = (to: string) => campaignEmails.find((e) => e.to === to)!.id;
      // Nothing is clicked before retention: a click resolves an email's links once and remembers them.
      const mails = {
        linked: await linksOf('linked@dest.test'),
        vip: await linksOf('vip.reader@dest.test'),
        plain: await linksOf('reader@dest.test'),
      };
      // Consent links (the preference centre, unsubscribing) are not click-tracked.
      expect([...mails.vip.clicks.keys()]).toEqual(['vip', 'yours', 'static']);
      expect([...mails.plain.clicks.keys()]).toEqual(['yours', 'static']);

      const ids = [sent!, emailTo('vip.reader@dest.test'), emailTo('reader@dest.test')];
      await age(m.t, 'emails', ids, 91);
      await emailContentRetentionJob.handler({}, m.t.ctx, manual);
      for (const id of ids) expect((await get(`/emails/${id}/source`)).statusCode, id).toBe(410);

      // Every old click link still redirects to its own recipient's target, and counts.
      expect(await click(mails.linked.clicks.get('report')!)).toBe('https://example.test/report?q=1&r=2');
      expect(await click(mails.linked.clicks.get('more')!)).toBe('https://example.test/more');
      expect(await click(mails.vip.clicks.get('vip')!)).toBe('https://example.com/vip');
      expect(await click(mails.vip.clicks.get('yours')!)).toBe('https://example.com/?u=vip.reader@dest.test');
      expect(await click(mails.vip.clicks.get('static')!)).toBe('https://example.com/static');
      expect(await click(mails.plain.clicks.get('yours')!)).toBe('https://example.com/?u=reader@dest.test');
      expect(await click(mails.plain.clicks.get('static')!)).toBe('https://example.com/static');
      // The old message's preference-centre link still opens the page.
      const manage = mails.plain.unsubscribe!.replace('/unsubscribe/', '/manage/');
      expect((await m.t.app.inject({ method: 'GET', url: manage, headers: browser })).statusCode).toBe(200);
      expect((await records(ids)).map((e) => e.clicks)).toEqual([2, 3, 2]);
      const report = (await get(`/campaigns/${campaignId}/links`)).json().data as { url: string; clicks: number }[];
      expect(report.map((l) => [l.url, l.clicks]).sort()).toEqual(
        [
          ['https://example.com/?u=reader@dest.test', 1],
          ['https://example.com/?u=vip.reader@dest.test', 1],
          ['https://example.com/static', 2],
          ['https://example.com/vip', 1],
        ].sort(),
      );

      // The open pixel counts, and the old unsubscribe link unsubscribes.
      for (const mail of Object.values(mails))
        expect((await m.t.app.inject({ method: 'GET', url: mail.pixel })).headers['content-type']).toBe('image/gif');
      expect((await records(ids)).map((e) => e.opens)).toEqual([1, 1, 1]);
      expect((await m.t.app.inject({ method: 'GET', url: mails.vip.unsubscribe!, headers: browser })).statusCode).toBe(
        200,
      );
      expect((await m.t.app.inject({ method: 'POST', url: mails.vip.unsubscribe! })).statusCode).toBe(200);
      const contacts = (await get('/contacts?email=vip.reader@dest.test')).json().data.items as {
        subscribed: boolean;
      }[];
      expect(contacts).toEqual([expect.objectContaining({ subscribed: false })]);
      expect((await get(`/campaigns/${campaignId}/stats`)).json().data).toMatchObject({ unsubscribed: 1 });

      // What is kept: the targets by link number (null where no click link leads), no body, no variables.
      const kept = (
        (await m.t.ctx.db.execute(
          sql`SELECT id, html, text, variables, link_targets FROM emails WHERE id IN (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
        )) as unknown as {
          rows: { id: string; html: string | null; text: string | null; variables: unknown; link_targets: unknown }[];
        }
      ).rows;
      const keptOf = (id: string) => kept.find((r) => r.id === id)!;
      for (const row of kept) expect(row).toMatchObject({ html: null, text: null, variables: null });
      expect(keptOf(sent!).link_targets).toEqual([
        'https://example.test/report?q=1&r=2',
        null,
        'https://example.test/more',
      ]);
      expect(keptOf(emailTo('reader@dest.test')).link_targets).toEqual([
        'https://example.com/?u=reader@dest.test',
        'https://example.com/static',
      ]);

      // Erasing a contact erases the targets kept of its emails too (a link may carry the address).
      const reader = ((await get('/contacts?email=reader@dest.test')).json().data.items as { id: string }[])[0]!;
      expect(
        (await m.t.app.inject({ method: 'DELETE', url: `/contacts/${reader.id}`, headers: sender.auth })).statusCode,
      ).toBeLessThan(300);
      const targetsOf = async (id: string) =>
        (
          (await m.t.ctx.db.execute(sql`SELECT link_targets FROM emails WHERE id = ${id}::uuid`)) as unknown as {
            rows: { link_targets: unknown }[];
          }
        ).rows[0]!.link_targets;
      expect(await targetsOf(emailTo('reader@dest.test'))).toBeNull();
      expect(await targetsOf(emailTo('vip.reader@dest.test'))).toHaveLength(3);
    },
  );

  it('drops content after RETENTION_EMAIL_CONTENT_DAYS when it is set', async () => {
    const [older, newer] = await send(['week1@dest.test', 'week2@dest.test']);
    await age(m.t, 'emails', [older!], 8);
    await age(m.t, 'emails', [newer!], 6);
    // The default keeps both; a second instance on the same database with a week's retention drops the older.
    await emailContentRetentionJob.handler({}, m.t.ctx, manual);
    for (const id of [older!, newer!]) expect((await get(`/emails/${id}/source`)).statusCode).toBe(200);
    const week = await createTestApp({
      database: m.t.testDb,
      handle: m.t.ctx.database,
      env: { RETENTION_EMAIL_CONTENT_DAYS: '7' },
    });
    try {
      await emailContentRetentionJob.handler({}, week.ctx, manual);
    } finally {
      await week.close();
    }
    expect((await get(`/emails/${older}/source`)).statusCode).toBe(410);
    expect((await get(`/emails/${newer}/source`)).statusCode).toBe(200);
  });

  it('leaves an unfinished email alone however old it is', async () => {
    const res = await m.t.app.inject({
      method: 'POST',
      url: '/v1/send',
      headers: sender.auth,
      payload: {
        to: 'later@dest.test',
        from: 'app@keep.example.test',
        subject: 'Later',
        body: '<p>Later</p>',
        scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.emails[0].email as string;
    await age(m.t, 'emails', [id], 200);
    await emailContentRetentionJob.handler({}, m.t.ctx, manual);
    expect((await get(`/emails/${id}/content`)).statusCode).toBe(200);
  });
});

describe('event retention', () => {
  it('keeps events forever by default, and deletes those past RETENTION_EVENTS_DAYS when set', async () => {
    for (const env of [{}, { RETENTION_EVENTS_DAYS: '30' }] as Record<string, string>[]) {
      const t = await createTestApp({ env });
      try {
        const p = await t.createProject();
        for (const event of ['signed_up', 'upgraded', 'paid']) {
          expect(
            (
              await t.app.inject({
                method: 'POST',
                url: '/v1/track',
                headers: p.auth,
                payload: { email: 'ann@dest.test', event },
              })
            ).statusCode,
          ).toBe(200);
        }
        const list = async () =>
          (await t.app.inject({ method: 'GET', url: '/events?limit=50', headers: p.auth })).json().data.items as {
            id: string;
            name: string;
          }[];
        const byName = new Map((await list()).map((e) => [e.name, e.id]));
        await age(t, 'events', [byName.get('signed_up')!, byName.get('upgraded')!], 31);
        await eventsRetentionJob.handler({}, t.ctx, manual);
        const names = (await list())
          .map((e) => e.name)
          .filter((n) => byName.has(n))
          .sort();
        expect(names).toEqual('RETENTION_EVENTS_DAYS' in env ? ['paid'] : ['paid', 'signed_up', 'upgraded']);
      } finally {
        await t.close();
      }
    }
  });
});
