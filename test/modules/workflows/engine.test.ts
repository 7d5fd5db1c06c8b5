// The engine over HTTP with a real worker, SMTP sink and DNS server: every step type, both CONDITION branches,
// DELAY and WAIT (event and time-out), triggers on tracked and service events, MANUAL starts, cancel, delete,
// a deleted contact, a failing step. Durations are seconds so the tests stay short.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkflowFixture, type WorkflowFixture } from './fixture.ts';
import { until } from '../../support/until.ts';

let f: WorkflowFixture;
beforeAll(async () => {
  f = await startWorkflowFixture();
});
afterAll(async () => f?.close());

const messagesTo = (address: string) => f.m.sink.messages.filter((m) => m.to.includes(address));

describe('workflow engine', () => {
  it('runs SEND_EMAIL, DELAY, CONDITION (then), UPDATE_CONTACT and records each step in the history', async () => {
    const w = await f.createWorkflow({
      name: 'Series',
      trigger: { type: 'EVENT', event: 'signup' },
      steps: [
        { id: 'welcome', type: 'SEND_EMAIL', templateId: f.templates.welcome, data: { plan: 'trial' } },
        { id: 'pause', type: 'DELAY', duration: '1s' },
        {
          id: 'check',
          type: 'CONDITION',
          if: { field: 'data.firstName', operator: 'equals', value: 'Ada' },
          then: [{ id: 'tag', type: 'UPDATE_CONTACT', data: { onboarded: true } }],
          else: [{ id: 'never', type: 'EXIT' }],
        },
        { id: 'nudge', type: 'SEND_EMAIL', templateId: f.templates.nudge },
      ],
    });
    const tracked = await f.track('ada@dest.test', 'signup', { firstName: 'Ada' });
    const [exec] = await f.waitForExecutions(w.id, ['COMPLETED']);
    expect(exec).toMatchObject({ workflowId: w.id, version: 1, contactId: tracked.contact, currentStepId: null });
    expect(exec!.finishedAt).not.toBeNull();
    expect(exec!.history.map((h) => [h.stepId, h.type, h.status])).toEqual([
      ['welcome', 'SEND_EMAIL', 'COMPLETED'],
      ['pause', 'DELAY', 'COMPLETED'],
      ['check', 'CONDITION', 'COMPLETED'],
      ['tag', 'UPDATE_CONTACT', 'COMPLETED'],
      ['nudge', 'SEND_EMAIL', 'COMPLETED'],
    ]);
    expect(exec!.history[2]!.detail).toEqual({ branch: 'then' });
    // The DELAY really waited: the step after it ran at least a second after it started.
    expect(Date.parse(exec!.history[1]!.at) - Date.parse(exec!.history[0]!.at)).toBeGreaterThanOrEqual(900);
    const contact = await f.api('GET', `/contacts/${tracked.contact}`);
    expect(contact.body.data.data).toMatchObject({ firstName: 'Ada', onboarded: true });
    await f.m.sink.waitForMessages(2);
    const [welcome, nudge] = await Promise.all(messagesTo('ada@dest.test').map((m) => simpleParser(m.raw)));
    expect(welcome!.subject).toBe('Welcome Ada');
    expect(welcome!.html).toContain('plan trial');
    expect(nudge!.subject).toBe('Still there?');
    const emails = await f.api('GET', `/emails?contactId=${tracked.contact}`);
    expect(emails.body.data.items.map((e: { source: unknown }) => e.source)).toEqual([
      { type: 'WORKFLOW', id: w.id },
      { type: 'WORKFLOW', id: w.id },
    ]);
    expect(exec!.history[0]!.detail!.emailId).toBe(emails.body.data.items[1].id);
  });

  it('takes the else branch when the contact does not match, and EXIT ends it EXITED', async () => {
    const w = await f.createWorkflow({
      name: 'Else',
      trigger: { type: 'EVENT', event: 'visit' },
      steps: [
        {
          id: 'c',
          type: 'CONDITION',
          if: { event: 'purchase', operator: 'performed' },
          then: [{ id: 't', type: 'UPDATE_CONTACT', subscribed: true }],
          else: [{ id: 'x', type: 'EXIT' }],
        },
        { id: 'after', type: 'UPDATE_CONTACT', data: { reached: true } },
      ],
    });
    await f.track('grace@dest.test', 'visit');
    const [exec] = await f.waitForExecutions(w.id, ['EXITED']);
    expect(exec!.history.map((h) => [h.stepId, h.status, h.detail])).toEqual([
      ['c', 'COMPLETED', { branch: 'else' }],
      ['x', 'COMPLETED', undefined],
    ]);
    expect(exec!.currentStepId).toBe('x');
  });

  it("an UPDATE_CONTACT step's subscription change is in the consent ledger, naming the workflow", async () => {
    const w = await f.createWorkflow({
      name: 'Leave',
      trigger: { type: 'EVENT', event: 'closed-account' },
      steps: [{ id: 'out', type: 'UPDATE_CONTACT', subscribed: false }],
    });
    const { contact } = await f.track('closer@dest.test', 'closed-account');
    await f.waitForExecutions(w.id, ['COMPLETED']);
    const ledger = (await f.api('GET', `/contacts/${contact}/consent`)).body.data as {
      action: string;
      source: { type: string; id?: string };
    }[];
    expect(ledger.map((e) => [e.action, e.source.type, e.source.id])).toEqual([
      ['subscribed', 'api', undefined],
      ['unsubscribed', 'workflow', w.id],
    ]);
  });

  it('WAIT_FOR_EVENT: the event wakes it onto onEvent; without it the time-out takes onTimeout', async () => {
    const w = await f.createWorkflow({
      name: 'Wait',
      trigger: { type: 'EVENT', event: 'trial' },
      steps: [
        {
          id: 'wait',
          type: 'WAIT_FOR_EVENT',
          event: 'activated',
          timeout: '3s',
          onEvent: [{ id: 'yes', type: 'UPDATE_CONTACT', data: { path: 'event' } }],
          onTimeout: [{ id: 'no', type: 'UPDATE_CONTACT', data: { path: 'timeout' } }],
        },
        { id: 'end', type: 'UPDATE_CONTACT', data: { done: true } },
      ],
    });
    const fast = await f.track('fast@dest.test', 'trial');
    const slow = await f.track('slow@dest.test', 'trial');
    await until(
      async () => {
        const items = await f.executions(w.id);
        return items.length === 2 && items.every((e) => e.status === 'WAITING' && e.currentStepId === 'wait')
          ? true
          : undefined;
      },
      'both waiting',
      30_000,
    );
    // Another event of the same contact does not wake it; another contact's `activated` neither.
    await f.track('fast@dest.test', 'unrelated');
    await f.track('bystander@dest.test', 'activated');
    await f.track('fast@dest.test', 'activated');
    const done = await f.waitForExecutions(w.id, ['COMPLETED'], 2);
    const byContact = new Map(done.map((e) => [e.contactId, e]));
    expect(byContact.get(fast.contact)!.history.map((h) => [h.stepId, h.detail?.outcome ?? null])).toEqual([
      ['wait', 'EVENT'],
      ['yes', null],
      ['end', null],
    ]);
    expect(byContact.get(slow.contact)!.history.map((h) => [h.stepId, h.detail?.outcome ?? null])).toEqual([
      ['wait', 'TIMEOUT'],
      ['no', null],
      ['end', null],
    ]);
    expect((await f.api('GET', `/contacts/${fast.contact}`)).body.data.data).toMatchObject({
      path: 'event',
      done: true,
    });
    expect((await f.api('GET', `/contacts/${slow.contact}`)).body.data.data).toMatchObject({
      path: 'timeout',
      done: true,
    });
  });

  it('goes from a wait straight into the next wait', async () => {
    const w = await f.createWorkflow({
      name: 'Waits',
      trigger: { type: 'EVENT', event: 'waits' },
      steps: [
        { id: 'd1', type: 'DELAY', duration: '1s' },
        { id: 'd2', type: 'DELAY', duration: '1s' },
        {
          id: 'w',
          type: 'WAIT_FOR_EVENT',
          event: 'never',
          timeout: '1s',
          onTimeout: [{ id: 'd3', type: 'DELAY', duration: '1s' }],
        },
      ],
    });
    await f.track('waiter@dest.test', 'waits');
    const [exec] = await f.waitForExecutions(w.id, ['COMPLETED']);
    expect(exec!.history.map((h) => h.stepId)).toEqual(['d1', 'd2', 'w', 'd3']);
  });

  it("starts on the service's own events (contact.unsubscribed) and on MANUAL starts", async () => {
    const w = await f.createWorkflow({
      name: 'Bye',
      trigger: { type: 'EVENT', event: 'contact.unsubscribed' },
      steps: [{ id: 'mark', type: 'UPDATE_CONTACT', data: { left: true } }],
    });
    const created = await f.api('POST', '/contacts', { email: 'leaver@dest.test' });
    await f.api('PATCH', `/contacts/${created.body.data.id}`, { subscribed: false });
    const [exec] = await f.waitForExecutions(w.id, ['COMPLETED']);
    expect(exec!.contactId).toBe(created.body.data.id);

    const manual = await f.createWorkflow({
      name: 'Manual',
      trigger: { type: 'MANUAL' },
      steps: [{ id: 'm', type: 'UPDATE_CONTACT', data: { manual: true } }],
    });
    const started = await f.api('POST', `/workflows/${manual.id}/executions`, { contactId: created.body.data.id });
    expect(started.status).toBe(201);
    expect(started.body.data).toMatchObject({
      workflowId: manual.id,
      contactId: created.body.data.id,
      status: 'RUNNING',
      history: [],
    });
    await f.waitForExecutions(manual.id, ['COMPLETED']);
    const one = await f.api('GET', `/workflows/${manual.id}/executions/${started.body.data.id}`);
    expect(one.body.data).toMatchObject({
      id: started.body.data.id,
      status: 'COMPLETED',
      history: [{ stepId: 'm', status: 'COMPLETED' }],
    });
    // Bad manual starts: unknown contact (422), a second start without reentry (409), a disabled workflow (409).
    expect(
      (await f.api('POST', `/workflows/${manual.id}/executions`, { contactId: '0190f9c2-0000-7000-8000-000000000000' }))
        .status,
    ).toBe(422);
    expect((await f.api('POST', `/workflows/${manual.id}/executions`, { contactId: 'nope' })).status).toBe(422);
    expect(
      (await f.api('POST', `/workflows/${manual.id}/executions`, { contactId: created.body.data.id })).status,
    ).toBe(409);
    const off = await f.createWorkflow({ name: 'Off', enabled: false, trigger: { type: 'MANUAL' } });
    expect((await f.api('POST', `/workflows/${off.id}/executions`, { contactId: created.body.data.id })).status).toBe(
      409,
    );
  });

  it('a disabled workflow starts nothing', async () => {
    const w = await f.createWorkflow({
      name: 'Disabled',
      enabled: false,
      trigger: { type: 'EVENT', event: 'quiet' },
      steps: [{ type: 'EXIT' }],
    });
    const sentinel = await f.createWorkflow({
      name: 'Sentinel',
      trigger: { type: 'EVENT', event: 'quiet' },
      steps: [{ type: 'EXIT' }],
    });
    await f.track('quiet@dest.test', 'quiet');
    await f.waitForExecutions(sentinel.id, ['EXITED']);
    expect(await f.executions(w.id)).toEqual([]);
  });

  it(
    'MARKETING templates skip unsubscribed contacts (SKIPPED, the execution goes on) ' +
      'and carry one-click unsubscribe',
    async () => {
      const w = await f.createWorkflow({
        name: 'News',
        trigger: { type: 'EVENT', event: 'news' },
        steps: [
          { id: 'send', type: 'SEND_EMAIL', templateId: f.templates.marketing },
          { id: 'after', type: 'UPDATE_CONTACT', data: { after: true } },
        ],
      });
      await f.api('POST', '/contacts', { email: 'optout@dest.test', subscribed: false });
      await f.track('optout@dest.test', 'news');
      await f.track('reader@dest.test', 'news');
      const done = await f.waitForExecutions(w.id, ['COMPLETED'], 2);
      const statuses = done.map((e) => e.history[0]!.status).sort();
      expect(statuses).toEqual(['COMPLETED', 'SKIPPED']);
      const skipped = done.find((e) => e.history[0]!.status === 'SKIPPED')!;
      expect(skipped.history[0]!.detail).toMatchObject({ reason: 'UNSUBSCRIBED' });
      expect((await f.api('GET', `/emails/${skipped.history[0]!.detail!.emailId}`)).body.data.status).toBe(
        'SUPPRESSED',
      );
      await until(
        async () => (messagesTo('reader@dest.test').length > 0 ? true : undefined),
        'the marketing email',
        30_000,
      );
      expect(messagesTo('optout@dest.test')).toHaveLength(0);
      const raw = messagesTo('reader@dest.test')[0]!.raw.toString();
      expect(raw).toMatch(/^List-Unsubscribe: <https:\/\/mail\.herald\.test\/unsubscribe\/[^>]+>\r?$/m);
      expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    },
  );

  it('cancel ends a WAITING execution, DELETE cancels the rest and stops new ones', async () => {
    const w = await f.createWorkflow({
      name: 'Long',
      allowReentry: true,
      trigger: { type: 'EVENT', event: 'long' },
      steps: [{ id: 'd', type: 'DELAY', duration: '1h' }],
    });
    await f.track('long1@dest.test', 'long');
    await f.track('long2@dest.test', 'long');
    const waiting = await f.waitForExecutions(w.id, ['WAITING'], 2);
    const cancel = await f.api('POST', `/workflows/${w.id}/executions/${waiting[0]!.id}/cancel`);
    expect(cancel.body.data).toMatchObject({ status: 'CANCELLED' });
    expect((await f.api('POST', `/workflows/${w.id}/executions/${waiting[0]!.id}/cancel`)).status).toBe(409);
    expect((await f.api('GET', `/workflows/${w.id}/executions?status=CANCELLED`)).body.data.total).toBe(1);
    const before = await f.api('GET', `/workflows/${w.id}/executions/${waiting[1]!.id}`);
    expect(before.body.data.status).toBe('WAITING');
    await f.api('DELETE', `/workflows/${w.id}`);
    await f.track('long3@dest.test', 'long');
    const rows = await f.m.t.ctx.db.execute(
      `SELECT status FROM workflow_executions WHERE workflow_id = '${w.id}' ORDER BY created_at`,
    );
    expect((rows as unknown as { rows: { status: string }[] }).rows.map((r) => r.status)).toEqual([
      'CANCELLED',
      'CANCELLED',
    ]);
  });

  it(
    'a contact deleted mid-way ends its execution EXITED; a failing step ends only ' + 'its own execution FAILED',
    async () => {
      const w = await f.createWorkflow({
        name: 'Fragile',
        allowReentry: true,
        trigger: { type: 'EVENT', event: 'fragile' },
        steps: [
          { id: 'd', type: 'DELAY', duration: '1s' },
          { id: 's', type: 'SEND_EMAIL', templateId: f.templates.nudge },
        ],
      });
      const gone = await f.track('gone@dest.test', 'fragile');
      await f.waitForExecutions(w.id, ['WAITING']);
      await f.api('DELETE', `/contacts/${gone.contact}`);
      const [exited] = await f.waitForExecutions(w.id, ['EXITED'], 1, 10_000);
      expect(exited!.history).toEqual([
        expect.objectContaining({ stepId: 'd', status: 'EXITED', detail: { reason: 'CONTACT_DELETED' } }),
      ]);

      const broken = await f.api('POST', '/templates', {
        name: 'Broken',
        type: 'TRANSACTIONAL',
        subject: '{% for i in (1..2000) %}x{% endfor %}',
        body: 'b',
        from: 'hello@flows.test',
      });
      const failing = await f.createWorkflow({
        name: 'Failing',
        trigger: { type: 'EVENT', event: 'fail' },
        steps: [{ id: 'boom', type: 'SEND_EMAIL', templateId: broken.body.data.id }],
      });
      const healthy = await f.createWorkflow({
        name: 'Healthy',
        trigger: { type: 'EVENT', event: 'fail' },
        steps: [{ id: 'ok', type: 'UPDATE_CONTACT', data: { healthy: true } }],
      });
      await f.track('victim@dest.test', 'fail', { a: 1 });
      const [failed] = await f.waitForExecutions(failing.id, ['FAILED'], 1, 10_000);
      expect(failed!.history).toEqual([
        expect.objectContaining({
          stepId: 'boom',
          type: 'SEND_EMAIL',
          status: 'FAILED',
          error: expect.stringContaining('longer than'),
        }),
      ]);
      expect(failed!.finishedAt).not.toBeNull();
      await f.waitForExecutions(healthy.id, ['COMPLETED']);
    },
  );
});
