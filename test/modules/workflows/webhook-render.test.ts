// How a WEBHOOK step's Liquid renders, against a real HTTP receiver and the app listening on a real port: a
// heavy template renders off the event loop (GET /healthz answers while it runs) and fails the step with its
// render budget; a rendered header value beyond ASCII goes out as UTF-8 bytes at once, and one with a control
// character fails the step at once (no retry in either case).
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { until } from '../../support/until.ts';
import { startWorkflowFixture, type WorkflowFixture } from './fixture.ts';

// A billion loop iterations: minutes of work, far past any budget. The range is made once: a range written in
// the loop is charged to the render's memory limit on every pass, which a fast machine reaches before the time
// budget (the step would fail for memory, not time).
const ENDLESS =
  '{% assign r = (1..1000) %}{% for a in r %}{% for b in r %}{% for c in r %}{% endfor %}{% endfor %}{% endfor %}';

let f: WorkflowFixture;
let hook: WebhookReceiver;
let base = '';

beforeAll(async () => {
  f = await startWorkflowFixture({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', RENDER_BUDGET_MS: '3000' } });
  hook = await startWebhookReceiver();
  await f.m.t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(f.m.t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await hook?.close();
  await f?.close();
});

const at = (path: string) => (w: ReceivedWebhook) => w.body.includes(path);
const bodyOf = (path: string) => JSON.stringify({ path });

describe('WEBHOOK step rendering', () => {
  it(
    'renders a heavy template off the event loop: /healthz answers while it runs, and ' +
      'the step fails with its render budget',
    async () => {
      const w = await f.createWorkflow({
        name: 'Heavy',
        trigger: { type: 'EVENT', event: 'heavy' },
        steps: [
          { id: 'mark', type: 'WEBHOOK', url: hook.url, body: bodyOf('mark') },
          { id: 'heavy', type: 'WEBHOOK', url: hook.url, headers: { 'X-Heavy': ENDLESS }, body: bodyOf('heavy') },
        ],
      });
      await f.track('heavy@dest.test', 'heavy');
      await hook.waitFor(1, undefined, at('mark'));
      // The receiver answers before the step's completion is written: wait for it in the history, then the heavy
      // step is next (its render budget is seconds, the poll tens of milliseconds).
      const markRecorded = async () => (await f.executions(w.id))[0]?.history.some((h) => h.stepId === 'mark');
      await until(markRecorded, 'the first step recorded', 3_000, 20);
      // The server answers over its socket while it renders…
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      // …before the step is over: the execution is still on it, with only the first step in its history.
      const [during] = await f.executions(w.id);
      expect(during).toMatchObject({ status: 'RUNNING' });
      expect(during!.history.map((h) => h.stepId)).toEqual(['mark']);
      const [exec] = await f.waitForExecutions(w.id, ['FAILED']);
      expect(exec!.history).toEqual([
        expect.objectContaining({ stepId: 'mark', status: 'COMPLETED' }),
        expect.objectContaining({
          stepId: 'heavy',
          status: 'FAILED',
          error: expect.stringMatching(/rendering the step takes more than 3 s, its render budget/),
        }),
      ]);
      expect(hook.received.filter(at('heavy'))).toHaveLength(0);
    },
  );

  it('sends a rendered header value beyond ASCII as its UTF-8 bytes, at once', async () => {
    const w = await f.createWorkflow({
      name: 'Euro',
      trigger: { type: 'EVENT', event: 'euro' },
      steps: [
        {
          id: 'hook',
          type: 'WEBHOOK',
          url: hook.url,
          headers: { 'X-Name': '{{ contact.data.name }}', 'X-Literal': 'Zoë' },
          body: bodyOf('euro'),
        },
      ],
    });
    await f.track('euro@dest.test', 'euro', { name: 'Euro € 李' });
    const [exec] = await f.waitForExecutions(w.id, ['COMPLETED', 'FAILED']);
    expect(exec).toMatchObject({
      status: 'COMPLETED',
      history: [expect.objectContaining({ stepId: 'hook', status: 'COMPLETED' })],
    });
    const hits = hook.received.filter(at('euro'));
    expect(hits).toHaveLength(1);
    const utf8 = (value: unknown) => Buffer.from(String(value), 'latin1').toString('utf8');
    expect(utf8(hits[0]!.headers['x-name'])).toBe('Euro € 李');
    expect(utf8(hits[0]!.headers['x-literal'])).toBe('Zoë');
  });

  it('fails the step at once when a rendered header value holds a control character', async () => {
    const w = await f.createWorkflow({
      name: 'Bell',
      trigger: { type: 'EVENT', event: 'bell' },
      steps: [
        {
          id: 'hook',
          type: 'WEBHOOK',
          url: hook.url,
          headers: { 'X-Name': '{{ contact.data.name }}' },
          body: bodyOf('bell'),
        },
      ],
    });
    await f.track('bell@dest.test', 'bell', { name: 'ding\u0007dong' });
    const [exec] = await f.waitForExecutions(w.id, ['COMPLETED', 'FAILED']);
    expect(exec).toMatchObject({
      status: 'FAILED',
      history: [
        expect.objectContaining({
          stepId: 'hook',
          status: 'FAILED',
          error: 'headers.X-Name: the rendered value contains a control character (CR, LF, NUL…)',
        }),
      ],
    });
    expect(hook.received.filter(at('bell'))).toHaveLength(0);
  });

  it('fails the step at once when the rendered headers together are too large', async () => {
    const w = await f.createWorkflow({
      name: 'Big',
      trigger: { type: 'EVENT', event: 'big' },
      steps: [
        {
          id: 'hook',
          type: 'WEBHOOK',
          url: hook.url,
          headers: { 'X-Big': '{% for i in (1..5000) %}xy{% endfor %}' },
          body: bodyOf('big'),
        },
      ],
    });
    await f.track('big@dest.test', 'big');
    const [exec] = await f.waitForExecutions(w.id, ['COMPLETED', 'FAILED']);
    expect(exec!.history[0]).toMatchObject({
      status: 'FAILED',
      error: expect.stringMatching(/^headers: the rendered headers take \d+ bytes; at most 8192$/),
    });
    expect(hook.received.filter(at('big'))).toHaveLength(0);
  });
});
