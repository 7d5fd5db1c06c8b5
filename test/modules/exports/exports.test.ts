// Exports: the streamed CSV (columns, data as JSON, a segment's members, formulas defused, contacts added while it
// runs) and one person's data-subject export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertContacts } from '../../../src/modules/contacts/contacts.service.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError } from '../../support/envelope.ts';

type Auth = { authorization: string };

/** RFC 4180 lines → fields (enough for the test's values: quotes doubled, no newlines inside). */
function parseCsv(text: string): string[][] {
  return text
    .trimEnd()
    .split('\r\n')
    .map((line) => {
      const fields: string[] = [];
      let i = 0;
      while (i <= line.length) {
        if (line[i] === '"') {
          let value = '';
          i++;
          for (;;) {
            if (line[i] === '"' && line[i + 1] === '"') {
              value += '"';
              i += 2;
            } else if (line[i] === '"') {
              i++;
              break;
            } else value += line[i++];
          }
          fields.push(value);
          i++;
        } else {
          const end = line.indexOf(',', i);
          fields.push(line.slice(i, end === -1 ? line.length : end));
          i = end === -1 ? line.length + 1 : end + 1;
        }
      }
      return fields;
    });
}

describe('contact exports', () => {
  let t: TestApp;
  let auth: Auth;
  let projectId: string;
  const get = (url: string, headers: Auth = auth) => t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    t = await createTestApp();
    const project = await t.createProject('Exports');
    auth = project.auth;
    projectId = project.id;
    await upsertContacts({
      db: t.ctx.db,
      consent: { type: 'api' },
      projectId,
      rows: Array.from({ length: 2500 }, (_, i) => ({
        email: `c${i}@export.test`,
        defaultSubscribed: i % 2 === 0,
        patch: { plan: i % 3 === 0 ? 'pro' : 'free', n: i },
      })),
    });
    await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: auth,
      payload: {
        email: 'tricky@export.test',
        data: { plan: '=HYPERLINK("x")', note: 'a, "quoted" note', nested: { a: 1 } },
      },
    });
  });
  afterAll(() => t.close());

  it('streams every contact with a column per data key, quoting and defusing formulas', async () => {
    const res = await get('/contacts/export?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual(['id', 'email', 'subscribed', 'createdAt', 'updatedAt', 'n', 'nested', 'note', 'plan']);
    expect(rows).toHaveLength(2501);
    expect(new Set(rows.map((r) => r[0])).size).toBe(2501);
    const tricky = rows.find((r) => r[1] === 'tricky@export.test')!;
    expect(tricky.slice(5)).toEqual(['', '{"a":1}', 'a, "quoted" note', '\'=HYPERLINK("x")']);
    expect(
      rows
        .find((r) => r[1] === 'c3@export.test')!
        .slice(2, 3)
        .concat(rows.find((r) => r[1] === 'c3@export.test')!.slice(5)),
    ).toEqual(['false', '3', '', '', 'pro']);
  });

  it("exports a segment's members, with data as one JSON column when asked", async () => {
    const segment = (
      await t.app.inject({
        method: 'POST',
        url: '/segments',
        headers: auth,
        payload: { name: 'pro', filter: { field: 'data.plan', operator: 'equals', value: 'pro' } },
      })
    ).json().data;
    const res = await get(`/contacts/export?segmentId=${segment.id}&data=json`);
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual(['id', 'email', 'subscribed', 'createdAt', 'updatedAt', 'data']);
    expect(rows).toHaveLength(834);
    expect(rows.every((r) => JSON.parse(r[5]!).plan === 'pro')).toBe(true);
    expectError(await get(`/contacts/export?segmentId=${crypto.randomUUID()}`), 404, 'NOT_FOUND');
    expect((await get('/contacts/export?format=xml')).statusCode).toBe(422);
  });

  it('an export while contacts are being added lists every earlier contact once and nobody twice', async () => {
    const adding = (async () => {
      for (let i = 0; i < 40; i++)
        await t.app.inject({
          method: 'POST',
          url: '/contacts',
          headers: auth,
          payload: { email: `late${i}@export.test`, data: { plan: 'late' } },
        });
    })();
    const [res] = await Promise.all([get('/contacts/export'), adding]);
    const [header, ...rows] = parseCsv(res.body);
    expect(header![0]).toBe('id');
    const ids = rows.map((r) => r[0]);
    expect(new Set(ids).size).toBe(ids.length);
    const emails = new Set(rows.map((r) => r[1]));
    for (let i = 0; i < 2500; i++) expect(emails.has(`c${i}@export.test`)).toBe(true);
    expect(rows.every((r) => r.length === header!.length)).toBe(true);
  });

  it("exports one person's data: contact, events, emails and topic choices; 404 for another project", async () => {
    const contact = (await get('/contacts?email=tricky@export.test')).json().data.items[0];
    await t.app.inject({
      method: 'POST',
      url: '/v1/track',
      headers: auth,
      payload: { email: 'tricky@export.test', event: 'signed_up' },
    });
    const topic = (
      await t.app.inject({
        method: 'POST',
        url: '/topics',
        headers: auth,
        payload: { name: 'News', defaultSubscription: 'OPT_OUT' },
      })
    ).json().data;
    const res = await get(`/contacts/${contact.id}/export`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.contact).toMatchObject({ id: contact.id, email: 'tricky@export.test' });
    expect(data.events.map((e: { name: string }) => e.name)).toContain('signed_up');
    expect(data.emails).toEqual([]);
    expect(data.topics).toEqual([{ topicId: topic.id, name: 'News', subscribed: true }]);
    const other = (await t.createProject('Other')).auth;
    expectError(await get(`/contacts/${contact.id}/export`, other), 404, 'NOT_FOUND');
  });

  it('writes an export of many events page by page, as one valid JSON document in the success envelope', async () => {
    const events = Array.from({ length: 250 }, (_, i) => ({ email: 'busy@export.test', event: `step_${i}` }));
    for (const event of events) await t.app.inject({ method: 'POST', url: '/v1/track', headers: auth, payload: event });
    const contact = (await get('/contacts?email=busy@export.test')).json().data.items[0];
    const res = await get(`/contacts/${contact.id}/export`);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(res.body);
    expect(Object.keys(body)).toEqual(['success', 'data']);
    expect(body.success).toBe(true);
    expect(new Set(body.data.events.map((e: { name: string }) => e.name))).toEqual(new Set(events.map((e) => e.event)));
    expect(body.data.events).toHaveLength(250);
  });
});
