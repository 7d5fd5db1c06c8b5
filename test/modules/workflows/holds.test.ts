// A disabled project's executions hold, as its mail does: a step that comes due while the project is disabled
// does not run (no webhook request, no email queued, no contact change), and runs once the project is enabled
// again. Executions that start while it is disabled (events the service records itself, such as a one-click
// unsubscribe) are held at their first step. A real HTTP receiver counts the requests.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/db/rows.ts';
import { until } from '../../support/until.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { startWorkflowFixture, type WorkflowFixture } from './fixture.ts';

let f: WorkflowFixture;
let hook: WebhookReceiver;
beforeAll(async () => {
  f = await startWorkflowFixture({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  hook = await startWebhookReceiver();
});
afterAll(async () => {
  await hook?.close();
  await f?.close();
});
// A test that fails half-way leaves the project enabled for the next.
afterEach(async () => {
  await f.m.t.app.inject({
    method: 'PATCH',
    url: `/admin/projects/${f.projectId}`,
    headers: f.m.t.admin,
    payload: { disabled: false },
  });
});

const at = (path: string) => (w: ReceivedWebhook) => w.body.includes(path);

async function setDisabled(disabled: boolean): Promise<void> {
  const res = await f.m.t.app.inject({
    method: 'PATCH',
    url: `/admin/projects/${f.projectId}`,
    headers: f.m.t.admin,
    payload: { disabled },
  });
  expect(res.json().data.disabled).toBe(disabled);
}

/** What the database holds for a workflow's executions (the API answers 403 while the project is disabled). */
async function stored(workflowId: string) {
  return rowsOf<{ status: string; held_phase: string | null }>(
    await f.m.t.ctx.db.execute(
      sql`SELECT status, to_jsonb(x) ->> 'held_phase' AS held_phase FROM workflow_executions x WHERE workflow_id =
        ${workflowId}`,
    ),
  );
}

const heldAt = async (workflowId: string, phase: string) =>
  (await stored(workflowId)).some((e) => e.held_phase === phase);

/**
 * Waits until every workflow has an execution held at `phase`, or the receiver got a request with `path` (which must
 * not happen).
 */
async function checkpoint(path: string, phase: string, ...workflowIds: string[]): Promise<void> {
  await until(async () => {
    if (hook.received.some(at(path))) return true;
    for (const id of workflowIds) if (!(await heldAt(id, phase))) return false;
    return true;
  }, `executions held at ${phase}`);
  expect(hook.received.filter(at(path))).toHaveLength(0);
}

describe('a disabled project holds its workflows', () => {
  it('holds a step that comes due while disabled, and runs it once when enabled', async () => {
    const hooked = await f.createWorkflow({
      name: 'Hook later',
      trigger: { type: 'EVENT', event: 'paid' },
      steps: [
        { id: 'pause', type: 'DELAY', duration: '2s' },
        { id: 'hook', type: 'WEBHOOK', url: hook.url, body: '{"path": "paid"}' },
      ],
    });
    const mailed = await f.createWorkflow({
      name: 'Thank later',
      trigger: { type: 'EVENT', event: 'paid' },
      steps: [
        { id: 'pause', type: 'DELAY', duration: '2s' },
        { id: 'tag', type: 'UPDATE_CONTACT', data: { thanked: true } },
        { id: 'mail', type: 'SEND_EMAIL', templateId: f.templates.nudge },
      ],
    });
    const tracked = await f.track('payer@dest.test', 'paid');
    await f.waitForExecutions(hooked.id, ['WAITING']);
    await f.waitForExecutions(mailed.id, ['WAITING']);
    await setDisabled(true);

    // Checkpoint: both DELAYs ended and their next step was held, not run.
    await checkpoint('paid', 'resume', hooked.id, mailed.id);
    expect(await stored(hooked.id)).toEqual([{ status: 'WAITING', held_phase: 'resume' }]);
    const contact = rowsOf<{ data: Record<string, unknown> }>(
      await f.m.t.ctx.db.execute(sql`SELECT data FROM contacts WHERE id = ${tracked.contact}`),
    );
    expect(contact[0]!.data).not.toHaveProperty('thanked');
    const emails = rowsOf<{ n: number }>(
      await f.m.t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM emails WHERE source_id = ${mailed.id}`),
    );
    expect(emails[0]!.n).toBe(0);

    await setDisabled(false);
    await hook.waitFor(1, undefined, at('paid'));
    const [done] = await f.waitForExecutions(hooked.id, ['COMPLETED']);
    const [thanked] = await f.waitForExecutions(mailed.id, ['COMPLETED']);
    expect(hook.received.filter(at('paid'))).toHaveLength(1);
    expect(done).toMatchObject({
      statusReason: null,
      history: [
        { stepId: 'pause', status: 'COMPLETED' },
        { stepId: 'hook', status: 'COMPLETED' },
      ],
    });
    expect(thanked!.history.map((h) => [h.stepId, h.status])).toEqual([
      ['pause', 'COMPLETED'],
      ['tag', 'COMPLETED'],
      ['mail', 'COMPLETED'],
    ]);
    expect((await f.api('GET', `/contacts/${tracked.contact}`)).body.data.data).toMatchObject({ thanked: true });
  });

  it('holds executions that start while disabled at their first step', async () => {
    const w = await f.createWorkflow({
      name: 'On unsubscribe',
      trigger: { type: 'EVENT', event: 'contact.unsubscribed' },
      steps: [{ id: 'hook', type: 'WEBHOOK', url: hook.url, body: '{"path": "left"}' }],
    });
    const sent = await f.api('POST', '/v1/send', {
      to: 'leaver@dest.test',
      template: f.templates.marketing,
      subscribed: true,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const message = await until(
      async () => f.m.sink.messages.find((m) => m.to.includes('leaver@dest.test')),
      'the marketing email',
      30_000,
    );
    const link = /^List-Unsubscribe: <https:\/\/mail\.herald\.test(\/unsubscribe\/[^>]+)>\r?$/m.exec(
      message.raw.toString(),
    )![1]!;
    await setDisabled(true);

    // The one-click unsubscribe needs no key, so it works while the project is disabled: it starts an execution.
    const unsubscribed = await f.m.t.app.inject({
      method: 'POST',
      url: link,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribed.statusCode).toBe(200);
    await checkpoint('left', 'start', w.id);

    await setDisabled(false);
    await hook.waitFor(1, undefined, at('left'));
    const [exec] = await f.waitForExecutions(w.id, ['COMPLETED']);
    expect(exec!.history).toEqual([expect.objectContaining({ stepId: 'hook', status: 'COMPLETED' })]);
    expect(hook.received.filter(at('left'))).toHaveLength(1);
  });
});
