// Membership tracking: segment.entered / segment.exited for lists at once and for filtered segments within the
// tracking interval (1 s here), and workflows that start on them — with the worker running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

describe('segment membership tracking', () => {
  let t: TestApp;
  let auth: Auth;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const contact = async (email: string, data: Record<string, unknown> = {}) => (await call('POST', '/contacts', { email, data })).json().data.id as string;
  const events = async (name: string, contactId?: string) => {
    const res = await call('GET', `/events?name=${name}&limit=100${contactId ? `&contactId=${contactId}` : ''}`);
    return res.json().data.items as { contactId: string; data: Record<string, unknown> }[];
  };

  beforeAll(async () => {
    t = await createTestApp({ worker: true, env: { SEGMENT_TRACKING_SECONDS: '1' } });
    auth = (await t.createProject('Tracking')).auth;
  });
  afterAll(() => t.close());

  it('records entries and exits of a tracked list at once, and counts them on the segment', async () => {
    const ann = await contact('ann@list.test');
    const list = (await call('POST', '/segments', { name: 'VIP', type: 'STATIC', trackMembership: true })).json().data;
    await call('POST', `/segments/${list.id}/members`, { contactIds: [ann] });
    expect(await events('segment.entered', ann)).toEqual([expect.objectContaining({ data: { segmentId: list.id, segmentName: 'VIP' } })]);
    await call('POST', `/segments/${list.id}/members`, { contactIds: [ann] });
    expect(await events('segment.entered', ann)).toHaveLength(1);
    await call('DELETE', `/segments/${list.id}/members`, { contactIds: [ann] });
    expect(await events('segment.exited', ann)).toEqual([expect.objectContaining({ data: { segmentId: list.id, segmentName: 'VIP' } })]);
    expect((await call('GET', `/segments/${list.id}`)).json().data).toMatchObject({ trackMembership: true, enteredLast24h: 1, exitedLast24h: 1, memberCount: 0 });
    const untracked = (await call('POST', '/segments', { name: 'plain', type: 'STATIC' })).json().data;
    expect(untracked).not.toHaveProperty('enteredLast24h');
  });

  it('records who entered and left a tracked filtered segment, and starts SEGMENT_ENTERED / SEGMENT_EXITED workflows', async () => {
    const pro = { field: 'data.plan', operator: 'equals', value: 'pro' };
    const before = await contact('before@dyn.test', { plan: 'pro' });
    const leaver = await contact('leaver@dyn.test', { plan: 'pro' });
    const joiner = await contact('joiner@dyn.test', { plan: 'free' });
    const segment = (await call('POST', '/segments', { name: 'Pro', filter: pro, trackMembership: true })).json().data;
    expect(segment).toMatchObject({ trackMembership: true, memberCount: 2, enteredLast24h: 0, exitedLast24h: 0 });

    const entered = await call('POST', '/workflows', { name: 'Welcome pro', enabled: true, trigger: { type: 'SEGMENT_ENTERED', segmentId: segment.id }, steps: [{ type: 'UPDATE_CONTACT', data: { welcomed: true } }] });
    expect(entered.statusCode, entered.body).toBe(201);
    expect(entered.json().data.trigger).toEqual({ type: 'SEGMENT_ENTERED', segmentId: segment.id });
    const exited = await call('POST', '/workflows', { name: 'Goodbye pro', enabled: true, trigger: { type: 'SEGMENT_EXITED', segmentId: segment.id }, steps: [{ type: 'UPDATE_CONTACT', data: { leftPro: true } }] });
    expect(exited.statusCode, exited.body).toBe(201);

    await call('POST', '/contacts', { email: 'leaver@dyn.test', data: { plan: 'free' } });
    await call('POST', '/contacts', { email: 'joiner@dyn.test', data: { plan: 'pro' } });
    await until(async () => (await events('segment.entered', joiner)).length === 1 && (await events('segment.exited', leaver)).length === 1, 'membership events');
    expect(await events('segment.entered', before)).toEqual([]);
    expect(await events('segment.exited', joiner)).toEqual([]);
    const welcomed = await until(async () => {
      const data = (await call('GET', `/contacts/${joiner}`)).json().data.data as Record<string, unknown>;
      return data.welcomed === true ? data : null;
    }, 'the SEGMENT_ENTERED workflow');
    expect(welcomed).not.toHaveProperty('leftPro');
    await until(async () => (await call('GET', `/contacts/${leaver}`)).json().data.data.leftPro === true, 'the SEGMENT_EXITED workflow');
    expect((await call('GET', `/contacts/${before}`)).json().data.data).not.toHaveProperty('welcomed');
    expect((await call('GET', `/segments/${segment.id}`)).json().data).toMatchObject({ enteredLast24h: 1, exitedLast24h: 1 });

    // The workflow needs its segment: deleting it is refused while the workflow lives.
    expectError(await call('DELETE', `/segments/${segment.id}`), 409, 'CONFLICT');
  });

  it('checks a segment trigger\'s segment, and keeps segment.* event names for the service', async () => {
    expectValidation(await call('POST', '/workflows', { name: 'w', trigger: { type: 'SEGMENT_ENTERED', segmentId: crypto.randomUUID() }, steps: [] }), 'trigger.segmentId');
    expectValidation(await call('POST', '/workflows', { name: 'w', trigger: { type: 'SEGMENT_EXITED' }, steps: [] }), 'trigger.segmentId');
    expectValidation(await call('POST', '/v1/track', { email: 'x@dyn.test', event: 'segment.entered' }), 'event');
  });
});
