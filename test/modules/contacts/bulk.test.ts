// Bulk actions on contacts (POST /contacts/bulk, GET /contacts/bulk/{id}): every action by ids and by filter, the
// events and webhooks they record as the one-by-one changes do, progress counts, and the bad inputs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../support/webhook-receiver.ts';

type Auth = { authorization: string };

interface BulkView {
  id: string;
  action: string;
  status: string;
  total: number;
  processed: number;
  failed: number;
  failure: string | null;
}

describe('contact bulk actions', () => {
  let t: TestApp;
  let hook: WebhookReceiver;

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    t = await createTestApp({ worker: true, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  const api = (auth: Auth, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  /** A fresh project with these contacts (email → data, subscribed): their ids by email. */
  const world = async (people: { email: string; subscribed?: boolean; data?: object }[]) => {
    const { auth } = await t.createProject();
    const ids: Record<string, string> = {};
    for (const p of people) {
      const res = await api(auth, 'POST', '/contacts', p);
      expect(res.statusCode, res.body).toBe(201);
      ids[p.email] = res.json().data.id;
    }
    return { auth, ids };
  };
  const run = async (auth: Auth, body: unknown): Promise<BulkView> => {
    const res = await api(auth, 'POST', '/contacts/bulk', body);
    expect(res.statusCode, res.body).toBe(202);
    const { id } = res.json().data as { id: string };
    return until(
      async () => {
        const view = (await api(auth, 'GET', `/contacts/bulk/${id}`)).json().data as BulkView;
        return view.status === 'COMPLETED' || view.status === 'FAILED' ? view : null;
      },
      `bulk action ${id}`,
      60_000,
      50,
    );
  };
  const contact = async (auth: Auth, id: string) => (await api(auth, 'GET', `/contacts/${id}`)).json().data;
  const eventNames = async (auth: Auth, contactId: string) =>
    ((await api(auth, 'GET', `/events?contactId=${contactId}&limit=100`)).json().data.items as { name: string }[])
      .map((e) => e.name)
      .reverse();
  const hooksOf = (contactId: string) => (w: ReceivedWebhook) => w.json.data.contactId === contactId;

  it(
    'unsubscribes by ids: flips record contact.unsubscribed and push webhooks; an ' + 'unknown id counts as failed',
    async () => {
      const { auth, ids } = await world([
        { email: 'a@bulk.test' },
        { email: 'b@bulk.test' },
        { email: 'c@bulk.test', subscribed: false },
      ]);
      expect(
        (await api(auth, 'POST', '/webhooks', { url: hook.url, events: ['contact.unsubscribed'] })).statusCode,
      ).toBe(201);
      const unknown = '0190a0a0-0000-7000-8000-000000000000';
      const done = await run(auth, {
        action: 'unsubscribe',
        contactIds: [ids['a@bulk.test'], ids['b@bulk.test'], ids['c@bulk.test'], unknown, ids['a@bulk.test']],
      });
      expect(done).toMatchObject({
        action: 'unsubscribe',
        status: 'COMPLETED',
        total: 4,
        processed: 4,
        failed: 1,
        failure: null,
      });
      for (const email of ['a@bulk.test', 'b@bulk.test', 'c@bulk.test'])
        expect((await contact(auth, ids[email]!)).subscribed).toBe(false);
      expect(await eventNames(auth, ids['a@bulk.test']!)).toEqual(['contact.unsubscribed']);
      expect(await eventNames(auth, ids['c@bulk.test']!)).toEqual([]);
      const pushed = await hook.waitFor(1, 20_000, hooksOf(ids['b@bulk.test']!));
      expect(pushed.map((w) => w.json.type)).toEqual(['contact.unsubscribed']);
      await hook.waitFor(1, 20_000, hooksOf(ids['a@bulk.test']!));
      expect(hook.received.filter(hooksOf(ids['c@bulk.test']!))).toEqual([]);
    },
  );

  it('subscribes the contacts matching a filter, and only those', async () => {
    const { auth, ids } = await world([
      { email: 'pro1@bulk.test', subscribed: false, data: { plan: 'pro' } },
      { email: 'pro2@bulk.test', subscribed: false, data: { plan: 'pro' } },
      { email: 'free@bulk.test', subscribed: false, data: { plan: 'free' } },
    ]);
    const done = await run(auth, {
      action: 'subscribe',
      filter: { field: 'data.plan', operator: 'equals', value: 'pro' },
    });
    expect(done).toMatchObject({ status: 'COMPLETED', total: 2, processed: 2, failed: 0 });
    expect((await contact(auth, ids['pro1@bulk.test']!)).subscribed).toBe(true);
    expect((await contact(auth, ids['pro2@bulk.test']!)).subscribed).toBe(true);
    expect((await contact(auth, ids['free@bulk.test']!)).subscribed).toBe(false);
    expect(await eventNames(auth, ids['pro1@bulk.test']!)).toEqual(['contact.subscribed']);
    expect(await eventNames(auth, ids['free@bulk.test']!)).toEqual([]);
  });

  it('sets data like PATCH: merged key by key, a null deletes the key, contact.updated pushed', async () => {
    const { auth, ids } = await world([
      { email: 'd1@bulk.test', data: { plan: 'free', old: 1 } },
      { email: 'd2@bulk.test', data: { keep: true } },
    ]);
    expect((await api(auth, 'POST', '/webhooks', { url: hook.url, events: ['contact.updated'] })).statusCode).toBe(201);
    const done = await run(auth, {
      action: 'setData',
      filter: { field: 'email', operator: 'endsWith', value: '@bulk.test' },
      data: { plan: 'pro', old: null },
    });
    expect(done).toMatchObject({ status: 'COMPLETED', total: 2, processed: 2, failed: 0 });
    expect((await contact(auth, ids['d1@bulk.test']!)).data).toEqual({ plan: 'pro' });
    expect((await contact(auth, ids['d2@bulk.test']!)).data).toEqual({ keep: true, plan: 'pro' });
    const pushed = await hook.waitFor(1, 20_000, hooksOf(ids['d1@bulk.test']!));
    expect(pushed[0]!.json).toMatchObject({ type: 'contact.updated', data: { data: { plan: 'pro' } } });
  });

  it('deletes like DELETE /contacts/{id}: the contacts and their events go, contact.deleted is pushed', async () => {
    const { auth, ids } = await world([
      { email: 'x1@bulk.test' },
      { email: 'x2@bulk.test' },
      { email: 'stay@bulk.test' },
    ]);
    expect((await api(auth, 'POST', '/webhooks', { url: hook.url, events: ['contact.deleted'] })).statusCode).toBe(201);
    await api(auth, 'POST', '/v1/track', { email: 'x1@bulk.test', event: 'visited' });
    const done = await run(auth, { action: 'delete', contactIds: [ids['x1@bulk.test'], ids['x2@bulk.test']] });
    expect(done).toMatchObject({ action: 'delete', status: 'COMPLETED', total: 2, processed: 2, failed: 0 });
    expect((await api(auth, 'GET', `/contacts/${ids['x1@bulk.test']}`)).statusCode).toBe(404);
    expect((await api(auth, 'GET', `/contacts/${ids['x2@bulk.test']}`)).statusCode).toBe(404);
    expect((await api(auth, 'GET', `/events?contactId=${ids['x1@bulk.test']}`)).json().data.total).toBe(0);
    expect((await contact(auth, ids['stay@bulk.test']!)).email).toBe('stay@bulk.test');
    const pushed = await hook.waitFor(1, 20_000, hooksOf(ids['x2@bulk.test']!));
    expect(pushed[0]!.json).toMatchObject({ type: 'contact.deleted', data: { email: 'x2@bulk.test' } });
  });

  it('adds to and removes from a tracked list: members change, segment.entered / segment.exited recorded', async () => {
    const { auth, ids } = await world([
      { email: 'l1@bulk.test', data: { vip: true } },
      { email: 'l2@bulk.test', data: { vip: true } },
      { email: 'l3@bulk.test' },
    ]);
    const list = (await api(auth, 'POST', '/segments', { name: 'VIPs', type: 'STATIC', trackMembership: true })).json()
      .data as { id: string };
    const added = await run(auth, {
      action: 'addToSegment',
      segmentId: list.id,
      filter: { field: 'data.vip', operator: 'equals', value: true },
    });
    expect(added).toMatchObject({ status: 'COMPLETED', total: 2, processed: 2, failed: 0 });
    const members = async () =>
      ((await api(auth, 'GET', `/segments/${list.id}/contacts?limit=100`)).json().data.items as { email: string }[])
        .map((c) => c.email)
        .sort();
    expect(await members()).toEqual(['l1@bulk.test', 'l2@bulk.test']);
    const removed = await run(auth, {
      action: 'removeFromSegment',
      segmentId: list.id,
      contactIds: [ids['l1@bulk.test'], ids['l3@bulk.test']],
    });
    expect(removed).toMatchObject({ status: 'COMPLETED', total: 2, processed: 2, failed: 0 });
    expect(await members()).toEqual(['l2@bulk.test']);
    expect(await eventNames(auth, ids['l1@bulk.test']!)).toEqual(['segment.entered', 'segment.exited']);
    expect(await eventNames(auth, ids['l2@bulk.test']!)).toEqual(['segment.entered']);
    expect(await eventNames(auth, ids['l3@bulk.test']!)).toEqual([]);
  });

  it('works through many contacts in batches: total, processed and failed add up', async () => {
    const { auth } = await t.createProject();
    const rows = Array.from({ length: 1_234 }, (_, i) => ({ email: `many${i}@bulk.test`, data: { n: i } }));
    const upload = await api(auth, 'POST', '/contacts/import', rows);
    expect(upload.statusCode).toBe(202);
    await until(
      async () =>
        (await api(auth, 'GET', `/contacts/import/${upload.json().data.id}`)).json().data.status === 'completed',
      'the import',
      60_000,
      50,
    );
    const done = await run(auth, {
      action: 'unsubscribe',
      filter: { field: 'data.n', operator: 'greaterThanOrEqual', value: 34 },
    });
    expect(done).toMatchObject({ status: 'COMPLETED', total: 1_200, processed: 1_200, failed: 0 });
    expect((await api(auth, 'GET', '/contacts?subscribed=false&limit=1')).json().data.total).toBe(1_200);
    expect((await api(auth, 'GET', '/events?name=contact.unsubscribed&limit=1')).json().data.total).toBe(1_200);
  });

  it('refuses bad input with a 4xx naming the problem', async () => {
    const { auth, ids } = await world([{ email: 'bad@bulk.test' }]);
    const id = ids['bad@bulk.test']!;
    const dynamic = (
      await api(auth, 'POST', '/segments', {
        name: 'Dyn',
        filter: { field: 'subscribed', operator: 'equals', value: true },
      })
    ).json().data.id as string;
    const post = (body: unknown) => api(auth, 'POST', '/contacts/bulk', body);
    expectValidation(await post({ action: 'unsubscribe' }), 'contactIds');
    expectValidation(
      await post({
        action: 'unsubscribe',
        contactIds: [id],
        filter: { field: 'subscribed', operator: 'equals', value: true },
      }),
      'filter',
    );
    expectValidation(await post({ action: 'explode', contactIds: [id] }), 'action');
    expectValidation(await post({ contactIds: [id] }), 'action');
    expectValidation(
      await post({ action: 'unsubscribe', filter: { field: 'subscribed', operator: 'explodes', value: true } }),
      'filter.operator',
    );
    expectValidation(
      await post({ action: 'unsubscribe', filter: { field: 'nope', operator: 'equals', value: 1 } }),
      'filter.field',
    );
    expectValidation(
      await post({
        action: 'unsubscribe',
        filter: { segment: '0190a0a0-0000-7000-8000-000000000000', operator: 'member' },
      }),
      'filter.segment',
    );
    expectValidation(await post({ action: 'unsubscribe', contactIds: [] }), 'contactIds');
    expectValidation(await post({ action: 'unsubscribe', contactIds: [id, 'not-an-id'] }), 'contactIds.1');
    expectValidation(
      await post({ action: 'unsubscribe', contactIds: Array.from({ length: 10_001 }, () => id) }),
      'contactIds',
    );
    expectValidation(await post({ action: 'addToSegment', contactIds: [id] }), 'segmentId');
    expectValidation(await post({ action: 'removeFromSegment', contactIds: [id] }), 'segmentId');
    expectError(
      await post({ action: 'addToSegment', contactIds: [id], segmentId: '0190a0a0-0000-7000-8000-000000000000' }),
      404,
      'NOT_FOUND',
    );
    expectError(await post({ action: 'addToSegment', contactIds: [id], segmentId: 'nonsense' }), 404, 'NOT_FOUND');
    expectError(await post({ action: 'addToSegment', contactIds: [id], segmentId: dynamic }), 409, 'CONFLICT');
    expectError(
      await post({
        action: 'removeFromSegment',
        filter: { field: 'subscribed', operator: 'equals', value: true },
        segmentId: dynamic,
      }),
      409,
      'CONFLICT',
    );
    expectValidation(await post({ action: 'setData', contactIds: [id] }), 'data');
    expectValidation(await post({ action: 'setData', contactIds: [id], data: 'plan' }), 'data');
    expectError(await api(auth, 'GET', '/contacts/bulk/0190a0a0-0000-7000-8000-000000000000'), 404, 'NOT_FOUND');
    expectError(await api(auth, 'GET', '/contacts/bulk/nonsense'), 404, 'NOT_FOUND');
    // Nothing was queued by the refusals, and another project cannot read this one's action.
    const mine = await run(auth, { action: 'subscribe', contactIds: [id] });
    const other = await t.createProject();
    expectError(await api(other.auth, 'GET', `/contacts/bulk/${mine.id}`), 404, 'NOT_FOUND');
    expect((await contact(auth, id)).subscribed).toBe(true);
  });

  it('takes the scopes: POST needs a full key, GET a read key', async () => {
    const { auth, ids } = await world([{ email: 'scope@bulk.test' }]);
    const key = async (scope: string) => {
      const res = await api(auth, 'POST', '/api-keys', { name: `k-${scope}`, scope });
      expect(res.statusCode, res.body).toBe(201);
      return { authorization: `Bearer ${res.json().data.key as string}` };
    };
    const read = await key('read');
    expectError(
      await api(read, 'POST', '/contacts/bulk', { action: 'subscribe', contactIds: [ids['scope@bulk.test']] }),
      403,
      'FORBIDDEN',
    );
    const done = await run(auth, { action: 'subscribe', contactIds: [ids['scope@bulk.test']] });
    expect((await api(read, 'GET', `/contacts/bulk/${done.id}`)).json().data).toMatchObject({
      id: done.id,
      status: 'COMPLETED',
    });
  });
});
