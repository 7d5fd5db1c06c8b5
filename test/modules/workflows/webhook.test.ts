// WEBHOOK steps against a real HTTP server in the test, which verifies every request with the
// `standardwebhooks` package; retries on 5xx keep the webhook-id; 4xx and redirects fail the step.
// WEBHOOK_ALLOW_PRIVATE=true here (the server listens on 127.0.0.1); the refusals are in ssrf.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkflowFixture, type WorkflowFixture } from './fixture.ts';

interface Hit {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  verified: unknown;
}

let f: WorkflowFixture;
let server: http.Server;
let base = '';
let secret = '';
const hits: Hit[] = [];
/** Status codes to answer per path, in order; then 200. */
const script = new Map<string, number[]>();

beforeAll(async () => {
  f = await startWorkflowFixture({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  secret = (await f.api('GET', '/workflows/signing-secret')).body.data.secret;
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const verified = (() => {
        try {
          return new Webhook(secret).verify(body, req.headers as Record<string, string>);
        } catch (error) {
          return { failed: String(error) };
        }
      })();
      const path = req.url!.split('?')[0]!;
      hits.push({ path, method: req.method!, headers: req.headers, body, verified });
      const status = script.get(path)?.shift() ?? 200;
      if (status === 302) return res.writeHead(302, { location: `${base}/elsewhere` }).end();
      res.writeHead(status).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  f.m.dns.setRecords('hooks.flows.test', [{ type: 'A', address: '127.0.0.1' }]);
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await f?.close();
});

const hitsOf = (path: string) => hits.filter((h) => h.path === path);

describe('WEBHOOK steps', () => {
  it(
    'posts {workflow, execution, contact, event}, signed so that standardwebhooks ' +
      'verifies it, with Liquid in url and headers',
    async () => {
      const port = new URL(base).port;
      const w = await f.createWorkflow({
        name: 'Notify',
        trigger: { type: 'EVENT', event: 'ordered' },
        steps: [
          {
            id: 'hook',
            type: 'WEBHOOK',
            url: `http://hooks.flows.test:${port}/orders/{{ contact.id }}`,
            headers: { 'X-Plan': '{{ contact.data.plan }}' },
          },
        ],
      });
      const tracked = await f.track('buyer@dest.test', 'ordered', {
        plan: 'pro',
        orderId: { value: 'o-1', persistent: false },
      });
      const [exec] = await f.waitForExecutions(w.id, ['COMPLETED']);
      const [hit] = hitsOf(`/orders/${tracked.contact}`);
      expect(hit).toBeDefined();
      expect(hit!.method).toBe('POST');
      expect(hit!.headers['content-type']).toBe('application/json');
      expect(hit!.headers['x-plan']).toBe('pro');
      expect(hit!.headers.host).toBe(`hooks.flows.test:${port}`);
      const body = JSON.parse(hit!.body);
      expect(hit!.verified).toEqual(body);
      expect(body).toMatchObject({
        workflow: { id: w.id, name: 'Notify', version: 1 },
        execution: { id: exec!.id, stepId: 'hook' },
        contact: { id: tracked.contact, email: 'buyer@dest.test', subscribed: true, data: { plan: 'pro' } },
        event: { id: tracked.event, name: 'ordered', data: { plan: 'pro', orderId: 'o-1' } },
      });
      expect(exec!.history).toEqual([
        expect.objectContaining({
          stepId: 'hook',
          type: 'WEBHOOK',
          status: 'COMPLETED',
          detail: { responseStatus: 200, webhookId: hit!.headers['webhook-id'] },
        }),
      ]);
    },
  );

  it("sends the step's own Liquid body, and event null for a MANUAL start", async () => {
    const w = await f.createWorkflow({
      name: 'Custom',
      trigger: { type: 'MANUAL' },
      steps: [
        {
          type: 'WEBHOOK',
          url: `${base}/custom`,
          method: 'PUT',
          headers: { 'Content-Type': 'text/plain' },
          body: 'hello {{ contact.email }} event={{ event | json }}',
        },
      ],
    });
    const contact = await f.api('POST', '/contacts', { email: 'manual@dest.test' });
    await f.api('POST', `/workflows/${w.id}/executions`, { contactId: contact.body.data.id });
    await f.waitForExecutions(w.id, ['COMPLETED']);
    const [hit] = hitsOf('/custom');
    expect(hit).toMatchObject({ method: 'PUT', body: 'hello manual@dest.test event=null' });
    expect(hit!.headers['content-type']).toBe('text/plain');
    // Not JSON, so verify() cannot parse it: check the signature with the package's own sign().
    const expected = new Webhook(secret).sign(
      String(hit!.headers['webhook-id']),
      new Date(Number(hit!.headers['webhook-timestamp']) * 1000),
      hit!.body,
    );
    expect(hit!.headers['webhook-signature']).toBe(expected);
  });

  it('retries a 5xx with the same webhook-id, then completes', async () => {
    script.set('/flaky', [503]);
    const w = await f.createWorkflow({
      name: 'Flaky',
      trigger: { type: 'EVENT', event: 'flaky' },
      steps: [{ type: 'WEBHOOK', url: `${base}/flaky` }],
    });
    await f.track('flaky@dest.test', 'flaky');
    const [exec] = await f.waitForExecutions(w.id, ['COMPLETED'], 1, 40_000);
    const attempts = hitsOf('/flaky');
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.headers['webhook-id']).toBe(attempts[1]!.headers['webhook-id']);
    expect(attempts.every((a) => a.verified !== null && !(a.verified as { failed?: string }).failed)).toBe(true);
    expect(exec!.history).toHaveLength(1);
  }, 60_000);

  it('a 4xx or a redirect fails the step at once (no retry, redirect not followed)', async () => {
    script.set('/reject', [400]);
    script.set('/moved', [302]);
    const reject = await f.createWorkflow({
      name: 'Reject',
      trigger: { type: 'EVENT', event: 'reject' },
      steps: [{ type: 'WEBHOOK', url: `${base}/reject` }],
    });
    const moved = await f.createWorkflow({
      name: 'Moved',
      trigger: { type: 'EVENT', event: 'moved' },
      steps: [{ type: 'WEBHOOK', url: `${base}/moved` }],
    });
    await f.track('rejected@dest.test', 'reject');
    await f.track('moved@dest.test', 'moved');
    const [r] = await f.waitForExecutions(reject.id, ['FAILED']);
    const [m] = await f.waitForExecutions(moved.id, ['FAILED']);
    expect(r!.history[0]!.error).toContain('HTTP 400');
    expect(m!.history[0]!.error).toContain('HTTP 302');
    expect(hitsOf('/reject')).toHaveLength(1);
    expect(hitsOf('/moved')).toHaveLength(1);
    expect(hitsOf('/elsewhere')).toHaveLength(0);
  });
});
