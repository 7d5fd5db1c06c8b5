import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processImport } from '../../../src/modules/contacts/contacts.jobs.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation, stableError } from '../../support/envelope.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

interface ImportView {
  id: string;
  status: string;
  total: number;
  processed: number;
  created: number;
  updated: number;
  rejected: number;
  errors: { row: number; email?: string; reason: string }[];
  failure: string | null;
  finishedAt: string | null;
}

describe('POST /contacts/import', () => {
  let t: TestApp;
  let auth: Auth;

  const upload = (payload: string | unknown[], headers: Auth = auth) =>
    t.app.inject({
      method: 'POST',
      url: '/contacts/import',
      headers: { ...headers, 'content-type': typeof payload === 'string' ? 'text/csv' : 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const finished = async (id: string, headers: Auth = auth): Promise<ImportView> => {
    const view = async () =>
      (await t.app.inject({ method: 'GET', url: `/contacts/import/${id}`, headers })).json().data as ImportView;
    return until(
      async () => {
        const seen = await view();
        return (seen.status === 'completed' || seen.status === 'failed') && seen;
      },
      `import ${id} to finish`,
      30_000,
      50,
    );
  };
  const run = async (payload: string | unknown[], headers: Auth = auth) => {
    const res = await upload(payload, headers);
    expect(res.statusCode, res.body).toBe(202);
    return finished(res.json().data.id, headers);
  };
  const contact = async (email: string, headers: Auth = auth) =>
    (await t.app.inject({ method: 'GET', url: `/contacts?email=${email}`, headers })).json().data.items[0];

  beforeAll(async () => {
    t = await createTestApp({ worker: true });
    auth = (await t.createProject()).auth;
  });
  afterAll(() => t.close());

  it(
    'imports a CSV: email and subscribed columns, the rest into data; bad rows ' + 'rejected with row and reason',
    async () => {
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: auth,
        payload: { email: 'known@example.com', data: { plan: 'free', keep: 1 } },
      });
      const csv = [
        'Email,Subscribed,first_name,plan',
        'Alice@Example.com,true,Alice,pro',
        'known@example.com,no,,team',
        'not-an-email,true,X,',
        'bob@example.com,maybe,Bob,',
        'carol@example.com,0,"Carol, Jr.",',
        'dave@example.com,1,Dave,pro,extra',
        ',true,Nobody,',
        'alice@example.com,,,enterprise',
      ].join('\r\n');
      const res = await upload(csv);
      expect(res.statusCode).toBe(202);
      expect(res.json().data).toMatchObject({ status: 'queued', format: 'csv', total: 8, processed: 0 });
      const view = await finished(res.json().data.id);
      expect(view).toMatchObject({
        status: 'completed',
        total: 8,
        processed: 8,
        created: 2,
        updated: 2,
        rejected: 4,
        failure: null,
      });
      expect(view.finishedAt).not.toBeNull();
      expect(view.errors).toEqual([
        { row: 3, email: 'not-an-email', reason: 'email: Invalid email address: the address has no @' },
        { row: 4, email: 'bob@example.com', reason: 'subscribed: expected true or false' },
        { row: 6, reason: 'has 5 columns, the header has 4' },
        { row: 7, reason: 'No email address in this row' },
      ]);
      expect(await contact('alice@example.com')).toMatchObject({
        subscribed: true,
        data: { first_name: 'Alice', plan: 'enterprise' },
      });
      expect(await contact('carol@example.com')).toMatchObject({
        subscribed: false,
        data: { first_name: 'Carol, Jr.' },
      });
      const known = await contact('known@example.com');
      expect(known).toMatchObject({ subscribed: false, data: { plan: 'team', keep: 1 } });
      const events = (await t.app.inject({ method: 'GET', url: `/events?contactId=${known.id}`, headers: auth })).json()
        .data.items;
      expect(events.map((e: { name: string }) => e.name)).toEqual(['contact.unsubscribed']);
    },
  );

  it('reads semicolon-separated files and a byte-order mark', async () => {
    const view = await run('\uFEFFemail;city\nsemi@example.com;Oslo\n');
    expect(view).toMatchObject({ status: 'completed', created: 1, rejected: 0 });
    expect((await contact('semi@example.com')).data).toEqual({ city: 'Oslo' });
  });

  it('imports a JSON array of {email, subscribed?, data?}, rejecting bad items', async () => {
    const view = await run([
      { email: 'json1@example.com', data: { a: 1 } },
      { email: 'JSON2@example.com', subscribed: false, type: 'ignored' },
      'json3@example.com',
      { email: 'json4@example.com', subscribed: 'yes' },
      { email: 'json5@example.com', data: [1] },
      { email: 'json1@example.com', data: { b: 2, a: null } },
      { email: 'json6@example.com', data: { blob: 'x'.repeat(70_000) } },
    ]);
    expect(view).toMatchObject({ status: 'completed', total: 7, created: 2, updated: 1, rejected: 4 });
    expect(view.errors.map((e) => [e.row, e.reason.split(':')[0]])).toEqual([
      [3, 'expected an object with an email (Invalid input'],
      [4, 'subscribed'],
      [5, 'data'],
      [7, 'data'],
    ]);
    expect(await contact('json1@example.com')).toMatchObject({ subscribed: true, data: { b: 2 } });
    expect(await contact('json2@example.com')).toMatchObject({ subscribed: false, data: {} });
  });

  it(
    'works through several batches, keeps counting past the listed errors, and ' +
      'rejects rows whose merged data grows too big',
    async () => {
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: auth,
        payload: { email: 'grow@example.com', data: { big: 'x'.repeat(40_000) } },
      });
      const rows = Array.from({ length: 1_300 }, (_, i) => (i % 10 === 9 ? `bad-${i},` : `bulk${i}@example.com,${i}`));
      rows.splice(700, 0, `grow@example.com,${'y'.repeat(40_000)}`);
      const view = await run(['email,n', ...rows].join('\n'));
      expect(view).toMatchObject({
        status: 'completed',
        total: 1_301,
        processed: 1_301,
        created: 1_170,
        updated: 0,
        rejected: 131,
      });
      expect(view.errors).toHaveLength(100);
      expect(view.errors.find((e) => e.email === 'grow@example.com')).toEqual({
        row: 701,
        email: 'grow@example.com',
        reason: "data: the contact's data would exceed 64 KB as JSON",
      });
      expect(
        (await t.app.inject({ method: 'GET', url: '/contacts?search=bulk&limit=1', headers: auth })).json().data.total,
      ).toBe(1_170);
    },
  );

  it('rejects an unusable upload as a whole with 422', async () => {
    const noEmail = expectValidation(await upload('name,plan\nAda,pro\n'), 'body');
    expect(noEmail.error.message).toBe(
      'The file has no email column: its first row must name the columns, one of them "email"',
    );
    expectValidation(await upload('email\n'), 'body');
    expectValidation(await upload('email,name\n"unclosed@example.com,Ada\n'), 'body');
    expectValidation(await upload([]), 'body');
    expectValidation(await upload(Array.from({ length: 100_001 }, () => ({}))), 'body');
    expectValidation(
      await t.app.inject({
        method: 'POST',
        url: '/contacts/import',
        headers: auth,
        payload: { email: 'a@example.com' },
      }),
      'body',
    );
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/contacts/import',
        headers: { ...auth, 'content-type': 'application/xml' },
        payload: '<a/>',
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('shows an import only to its project; a foreign, random or malformed id is the same 404', async () => {
    const res = await upload('email\nmine@example.com\n');
    const otherProject = (await t.createProject('other')).auth;
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/contacts/import/${res.json().data.id}`,
      headers: otherProject,
    });
    const random = await t.app.inject({
      method: 'GET',
      url: '/contacts/import/01890000-0000-7000-8000-000000000000',
      headers: otherProject,
    });
    const malformed = await t.app.inject({ method: 'GET', url: '/contacts/import/123', headers: otherProject });
    expectError(theirs, 404, 'NOT_FOUND');
    expect(stableError(theirs)).toEqual(stableError(random));
    expect(stableError(malformed)).toEqual(stableError(random));
    await finished(res.json().data.id);
    expect(await contact('mine@example.com', otherProject)).toBeUndefined();
  });
});

describe('the import job', () => {
  it('counts every row once when two runs race on one import, and does nothing once finished', async () => {
    const t = await createTestApp();
    try {
      const auth = (await t.createProject()).auth;
      const csv = ['email', ...Array.from({ length: 1_200 }, (_, i) => `race${i}@example.com`)].join('\n');
      const res = await t.app.inject({
        method: 'POST',
        url: '/contacts/import',
        headers: { ...auth, 'content-type': 'text/csv' },
        payload: csv,
      });
      const id = res.json().data.id as string;
      await Promise.all([processImport(t.ctx.db, id), processImport(t.ctx.db, id)]);
      await processImport(t.ctx.db, id);
      const view = (await t.app.inject({ method: 'GET', url: `/contacts/import/${id}`, headers: auth })).json().data;
      expect(view).toMatchObject({ status: 'completed', processed: 1_200, created: 1_200, updated: 0, rejected: 0 });
      expect((await t.app.inject({ method: 'GET', url: '/contacts?limit=1', headers: auth })).json().data.total).toBe(
        1_200,
      );
    } finally {
      await t.close();
    }
  });
});
