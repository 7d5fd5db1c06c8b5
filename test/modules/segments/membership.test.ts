// Membership tracking: segment.entered / segment.exited for lists at once and for filtered segments within the
// tracking interval (1 s here), and workflows that start on them (each on its own segment's events only, lists
// included, with CONDITION steps asking a list) — with the worker running. Tracking turned on and off by PATCH,
// and tracking that survives a crash before its first snapshot.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/db/rows.ts';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectValidation } from '../../support/envelope.ts';
import { until } from '../../support/until.ts';

type Auth = { authorization: string };

describe('segment membership tracking', () => {
  let t: TestApp;
  let auth: Auth;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: auth, ...(payload === undefined ? {} : { payload: payload as object }) });
  const contact = async (email: string, data: Record<string, unknown> = {}) =>
    (await call('POST', '/contacts', { email, data })).json().data.id as string;
  const events = async (name: string, contactId?: string) => {
    const res = await call('GET', `/events?name=${name}&limit=100${contactId ? `&contactId=${contactId}` : ''}`);
    return res.json().data.items as { contactId: string; data: Record<string, unknown> }[];
  };

  const workflow = async (name: string, trigger: Record<string, unknown>, steps: unknown[]) => {
    const res = await call('POST', '/workflows', { name, enabled: true, trigger, steps });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const dataOf = async (id: string) =>
    (await call('GET', `/contacts/${id}`)).json().data.data as Record<string, unknown>;
  const startedFor = async (workflowId: string) =>
    ((await call('GET', `/workflows/${workflowId}/executions?limit=100`)).json().data.items as { contactId: string }[])
      .map((e) => e.contactId)
      .sort();
  const trackingOf = async (segmentId: string) => {
    const [row] = rowsOf<{ tracked_at: unknown; members: number }>(
      await t.ctx.db.execute(sql`
      SELECT tracked_at, (SELECT count(*)::int FROM segment_snapshots WHERE segment_id = ${segmentId}::uuid) AS
        members FROM segments WHERE id = ${segmentId}::uuid`),
    );
    return { trackedAt: row!.tracked_at, snapshot: Number(row!.members) };
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
    expect(await events('segment.entered', ann)).toEqual([
      expect.objectContaining({ data: { segmentId: list.id, segmentName: 'VIP' } }),
    ]);
    await call('POST', `/segments/${list.id}/members`, { contactIds: [ann] });
    expect(await events('segment.entered', ann)).toHaveLength(1);
    await call('DELETE', `/segments/${list.id}/members`, { contactIds: [ann] });
    expect(await events('segment.exited', ann)).toEqual([
      expect.objectContaining({ data: { segmentId: list.id, segmentName: 'VIP' } }),
    ]);
    expect((await call('GET', `/segments/${list.id}`)).json().data).toMatchObject({
      trackMembership: true,
      enteredLast24h: 1,
      exitedLast24h: 1,
      memberCount: 0,
    });
    const untracked = (await call('POST', '/segments', { name: 'plain', type: 'STATIC' })).json().data;
    expect(untracked).not.toHaveProperty('enteredLast24h');
  });

  it(
    'records who entered and left a tracked filtered segment, and starts ' +
      'SEGMENT_ENTERED / SEGMENT_EXITED workflows',
    async () => {
      const pro = { field: 'data.plan', operator: 'equals', value: 'pro' };
      const before = await contact('before@dyn.test', { plan: 'pro' });
      const leaver = await contact('leaver@dyn.test', { plan: 'pro' });
      const joiner = await contact('joiner@dyn.test', { plan: 'free' });
      const segment = (await call('POST', '/segments', { name: 'Pro', filter: pro, trackMembership: true })).json()
        .data;
      expect(segment).toMatchObject({ trackMembership: true, memberCount: 2, enteredLast24h: 0, exitedLast24h: 0 });

      const entered = await call('POST', '/workflows', {
        name: 'Welcome pro',
        enabled: true,
        trigger: { type: 'SEGMENT_ENTERED', segmentId: segment.id },
        steps: [{ type: 'UPDATE_CONTACT', data: { welcomed: true } }],
      });
      expect(entered.statusCode, entered.body).toBe(201);
      expect(entered.json().data.trigger).toEqual({ type: 'SEGMENT_ENTERED', segmentId: segment.id });
      const exited = await call('POST', '/workflows', {
        name: 'Goodbye pro',
        enabled: true,
        trigger: { type: 'SEGMENT_EXITED', segmentId: segment.id },
        steps: [{ type: 'UPDATE_CONTACT', data: { leftPro: true } }],
      });
      expect(exited.statusCode, exited.body).toBe(201);

      await call('POST', '/contacts', { email: 'leaver@dyn.test', data: { plan: 'free' } });
      await call('POST', '/contacts', { email: 'joiner@dyn.test', data: { plan: 'pro' } });
      await until(
        async () =>
          (await events('segment.entered', joiner)).length === 1 &&
          (await events('segment.exited', leaver)).length === 1,
        'membership events',
      );
      expect(await events('segment.entered', before)).toEqual([]);
      expect(await events('segment.exited', joiner)).toEqual([]);
      const welcomed = await until(async () => {
        const data = (await call('GET', `/contacts/${joiner}`)).json().data.data as Record<string, unknown>;
        return data.welcomed === true ? data : null;
      }, 'the SEGMENT_ENTERED workflow');
      expect(welcomed).not.toHaveProperty('leftPro');
      await until(
        async () => (await call('GET', `/contacts/${leaver}`)).json().data.data.leftPro === true,
        'the SEGMENT_EXITED workflow',
      );
      expect((await call('GET', `/contacts/${before}`)).json().data.data).not.toHaveProperty('welcomed');
      expect((await call('GET', `/segments/${segment.id}`)).json().data).toMatchObject({
        enteredLast24h: 1,
        exitedLast24h: 1,
      });

      // The workflow needs its segment: deleting it is refused while the workflow lives.
      expect(expectError(await call('DELETE', `/segments/${segment.id}`), 409, 'CONFLICT').error.message).toContain(
        'the trigger of workflow',
      );
    },
  );

  it("starts a segment's workflows on that segment's entries and exits only, with two segments tracked", async () => {
    const a = (
      await call('POST', '/segments', {
        name: 'Team A',
        filter: { field: 'data.team', operator: 'equals', value: 'a' },
        trackMembership: true,
      })
    ).json().data.id as string;
    const b = (
      await call('POST', '/segments', {
        name: 'Team B',
        filter: { field: 'data.team', operator: 'equals', value: 'b' },
        trackMembership: true,
      })
    ).json().data.id as string;
    const enteredA = await workflow('Entered A', { type: 'SEGMENT_ENTERED', segmentId: a }, [
      { type: 'UPDATE_CONTACT', data: { enteredA: true } },
    ]);
    const exitedA = await workflow('Exited A', { type: 'SEGMENT_EXITED', segmentId: a }, [
      { type: 'UPDATE_CONTACT', data: { exitedA: true } },
    ]);
    const exitedB = await workflow('Exited B', { type: 'SEGMENT_EXITED', segmentId: b }, [
      { type: 'UPDATE_CONTACT', data: { exitedB: true } },
    ]);
    const ada = await contact('ada@teams.test');
    const bea = await contact('bea@teams.test');

    await call('POST', '/contacts', { email: 'ada@teams.test', data: { team: 'a' } });
    await call('POST', '/contacts', { email: 'bea@teams.test', data: { team: 'b' } });
    await until(
      async () =>
        (await events('segment.entered', ada)).length === 1 && (await events('segment.entered', bea)).length === 1,
      'both entries',
    );
    expect((await events('segment.entered', bea))[0]!.data).toEqual({ segmentId: b, segmentName: 'Team B' });
    // Bea left no team yet: she leaves B (not A) now.
    await call('POST', '/contacts', { email: 'bea@teams.test', data: { team: null } });
    await until(async () => (await dataOf(bea)).exitedB === true, 'the SEGMENT_EXITED workflow of B');
    await until(async () => (await dataOf(ada)).enteredA === true, 'the SEGMENT_ENTERED workflow of A');
    // Executions start in the transaction that records the event: every event above has started what it starts.
    expect(await startedFor(enteredA)).toEqual([ada]);
    expect(await startedFor(exitedA)).toEqual([]);
    expect(await startedFor(exitedB)).toEqual([bea]);
    expect(await dataOf(bea)).toEqual({ exitedB: true });
  });

  it('starts a workflow when a contact is added to a tracked list, and a CONDITION asks another list', async () => {
    const vip = (await call('POST', '/segments', { name: 'VIP', type: 'STATIC' })).json().data.id as string;
    const joined = (await call('POST', '/segments', { name: 'Joined', type: 'STATIC', trackMembership: true })).json()
      .data.id as string;
    const greet = await workflow('Greet list members', { type: 'SEGMENT_ENTERED', segmentId: joined }, [
      {
        type: 'CONDITION',
        if: { segment: vip, operator: 'member' },
        then: [{ type: 'UPDATE_CONTACT', data: { greeting: 'vip' } }],
        else: [{ type: 'UPDATE_CONTACT', data: { greeting: 'plain' } }],
      },
    ]);
    const vera = await contact('vera@lists.test');
    const paul = await contact('paul@lists.test');
    await call('POST', `/segments/${vip}/members`, { contactIds: [vera] });
    const added = await call('POST', `/segments/${joined}/members`, { contactIds: [vera, paul] });
    expect(added.json().data).toMatchObject({ added: 2 });
    await until(async () => (await dataOf(vera)).greeting === 'vip', "the list member's branch");
    await until(async () => (await dataOf(paul)).greeting === 'plain', 'the other branch');
    expect(await startedFor(greet)).toEqual([vera, paul].sort());
    // The VIP list is not tracked: adding Vera to it started nothing and recorded no event of it.
    expect((await events('segment.entered', vera)).map((e) => e.data.segmentId)).toEqual([joined]);
  });

  it('turns tracking on and off with PATCH, for a filtered segment and a list', async () => {
    const filter = { field: 'data.beta', operator: 'equals', value: true };
    const early = await contact('early@patch.test', { beta: true });
    const segment = (await call('POST', '/segments', { name: 'Beta', filter })).json().data.id as string;
    const witness = (await call('POST', '/segments', { name: 'Beta witness', filter, trackMembership: true })).json()
      .data.id as string;
    expect((await call('GET', `/segments/${segment}`)).json().data).not.toHaveProperty('enteredLast24h');

    const on = await call('PATCH', `/segments/${segment}`, { trackMembership: true });
    expect(on.json().data).toMatchObject({
      trackMembership: true,
      enteredLast24h: 0,
      exitedLast24h: 0,
      memberCount: 1,
    });
    expect(await trackingOf(segment)).toMatchObject({ trackedAt: expect.anything(), snapshot: 1 });
    const later = await contact('later@patch.test', { beta: true });
    await until(
      async () => (await events('segment.entered', later)).filter((e) => e.data.segmentId === segment).length === 1,
      'an entry after tracking began',
    );
    // Who was in when tracking was turned on did not "enter".
    expect((await events('segment.entered', early)).filter((e) => e.data.segmentId === segment)).toEqual([]);

    const off = await call('PATCH', `/segments/${segment}`, { trackMembership: false });
    expect(off.json().data.trackMembership).toBe(false);
    expect(off.json().data).not.toHaveProperty('enteredLast24h');
    expect(await trackingOf(segment)).toEqual({ trackedAt: null, snapshot: 0 });
    const last = await contact('last@patch.test', { beta: true });
    await until(async () => (await events('segment.entered', last)).length > 0, "the witness segment's entry");
    expect((await events('segment.entered', last)).map((e) => e.data.segmentId)).toEqual([witness]);
    expect(await trackingOf(segment)).toEqual({ trackedAt: null, snapshot: 0 });

    const list = (await call('POST', '/segments', { name: 'Patched list', type: 'STATIC' })).json().data.id as string;
    expect((await call('PATCH', `/segments/${list}`, { trackMembership: true })).json().data).toMatchObject({
      trackMembership: true,
      enteredLast24h: 0,
    });
    await call('POST', `/segments/${list}/members`, { contactIds: [early] });
    expect((await events('segment.entered', early)).map((e) => e.data.segmentId)).toEqual([list]);
    expect((await call('PATCH', `/segments/${list}`, { trackMembership: false })).json().data.trackMembership).toBe(
      false,
    );
    await call('DELETE', `/segments/${list}/members`, { contactIds: [early] });
    await call('POST', `/segments/${list}/members`, { contactIds: [later] });
    expect(await events('segment.exited', early)).toEqual([]);
    expect((await events('segment.entered', later)).map((e) => e.data.segmentId)).not.toContain(list);
  });

  it('starts tracking that a crash left without its first snapshot, then records entries', async () => {
    const filter = { field: 'data.crash', operator: 'equals', value: true };
    const inside = await contact('inside@crash.test', { crash: true });
    const segment = (await call('POST', '/segments', { name: 'Crashed', filter })).json().data.id as string;
    // What a PATCH that committed trackMembership and then lost its process leaves: tracked, never snapshotted.
    await t.ctx.db.execute(
      sql`UPDATE segments SET track_membership = true, tracked_at = NULL WHERE id = ${segment}::uuid`,
    );
    await until(async () => (await trackingOf(segment)).trackedAt !== null, "the worker's first snapshot");
    expect((await trackingOf(segment)).snapshot).toBe(1);
    expect(await events('segment.entered', inside)).toEqual([]);
    const newcomer = await contact('newcomer@crash.test', { crash: true });
    await until(async () => (await events('segment.entered', newcomer)).length === 1, 'an entry after recovery');
    expect((await events('segment.entered', newcomer))[0]!.data).toEqual({
      segmentId: segment,
      segmentName: 'Crashed',
    });
    expect((await call('GET', `/segments/${segment}`)).json().data).toMatchObject({
      trackMembership: true,
      enteredLast24h: 1,
      exitedLast24h: 0,
    });
  });

  it(
    'refuses a segment trigger on a segment that does not track (422), and keeps ' +
      'tracking on while a workflow starts on it (409)',
    async () => {
      const filter = { field: 'data.plan', operator: 'equals', value: 'gold' };
      const quiet = (await call('POST', '/segments', { name: 'Gold', filter })).json().data.id as string;
      const refused = expectValidation(
        await call('POST', '/workflows', {
          name: 'Welcome gold',
          trigger: { type: 'SEGMENT_ENTERED', segmentId: quiet },
          steps: [],
        }),
        'trigger.segmentId',
      );
      expect(refused.error.errors).toEqual([
        expect.objectContaining({ field: 'trigger.segmentId', code: 'segment_not_tracked' }),
      ]);
      expect(refused.error.message).toContain('"Gold" does not track entries and exits');
      expect(refused.error.suggestion).toBe(
        `Turn trackMembership on first: PATCH /segments/${quiet} {"trackMembership": ` +
          `true} ("Track entries and exits" on the segment's page).`,
      );
      // A PATCH that moves a workflow onto it is refused the same way, and leaves the trigger as it was.
      const later = await workflow('Gold later', { type: 'EVENT', event: 'went_gold' }, []);
      expectValidation(
        await call('PATCH', `/workflows/${later}`, { trigger: { type: 'SEGMENT_EXITED', segmentId: quiet } }),
        'trigger.segmentId',
      );
      expect((await call('GET', `/workflows/${later}`)).json().data.trigger).toEqual({
        type: 'EVENT',
        event: 'went_gold',
      });

      expect((await call('PATCH', `/segments/${quiet}`, { trackMembership: true })).statusCode).toBe(200);
      const entered = await workflow('Welcome gold', { type: 'SEGMENT_ENTERED', segmentId: quiet }, []);
      expect(
        (
          await call('PATCH', `/workflows/${later}`, {
            enabled: false,
            trigger: { type: 'SEGMENT_EXITED', segmentId: quiet },
          })
        ).statusCode,
      ).toBe(200);

      // Turning tracking off now would stop both (the disabled one too) from ever starting: 409 naming them, nothing
      // changed.
      const off = expectError(
        await call('PATCH', `/segments/${quiet}`, { name: 'Gold members', trackMembership: false }),
        409,
        'CONFLICT',
      );
      expect(off.error.message).toContain(`"Gold later" (${later}), "Welcome gold" (${entered})`);
      expect(off.error.suggestion).toContain('PATCH /workflows/{id}');
      expect((await call('GET', `/segments/${quiet}`)).json().data).toMatchObject({
        name: 'Gold',
        trackMembership: true,
      });
      // Leaving it on, or changing something else, is no problem.
      expect((await call('PATCH', `/segments/${quiet}`, { name: 'Gold tier', trackMembership: true })).statusCode).toBe(
        200,
      );

      expect((await call('DELETE', `/workflows/${entered}`)).statusCode).toBe(200);
      const still = expectError(await call('PATCH', `/segments/${quiet}`, { trackMembership: false }), 409, 'CONFLICT');
      expect(still.error.message).toContain(`workflow "Gold later" (${later})`);
      expect(still.error.message).not.toContain(entered);
      expect((await call('PATCH', `/workflows/${later}`, { trigger: { type: 'MANUAL' } })).statusCode).toBe(200);
      expect((await call('PATCH', `/segments/${quiet}`, { trackMembership: false })).json().data).toMatchObject({
        trackMembership: false,
      });
    },
  );

  it("checks a segment trigger's segment, and keeps segment.* event names for the service", async () => {
    expectValidation(
      await call('POST', '/workflows', {
        name: 'w',
        trigger: { type: 'SEGMENT_ENTERED', segmentId: crypto.randomUUID() },
        steps: [],
      }),
      'trigger.segmentId',
    );
    expectValidation(
      await call('POST', '/workflows', { name: 'w', trigger: { type: 'SEGMENT_EXITED' }, steps: [] }),
      'trigger.segmentId',
    );
    expectValidation(await call('POST', '/v1/track', { email: 'x@dyn.test', event: 'segment.entered' }), 'event');
  });
});
