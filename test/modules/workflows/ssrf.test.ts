// WEBHOOK steps refuse loopback, private, link-local and metadata targets (WEBHOOK_ALLOW_PRIVATE unset): literal
// addresses at save time, and at run time whatever the URL renders to or the host name resolves to (through the
// in-test DNS server). A real HTTP server on 127.0.0.1 shows that nothing reached it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkflowFixture, type WorkflowFixture } from './fixture.ts';

let f: WorkflowFixture;
let server: http.Server;
let port = 0;
let requests = 0;

beforeAll(async () => {
  f = await startWorkflowFixture();
  server = http.createServer((_req, res) => {
    requests++;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  f.m.dns.setRecords('internal.flows.test', [{ type: 'A', address: '127.0.0.1' }]);
  f.m.dns.setRecords('intranet.flows.test', [{ type: 'A', address: '10.0.0.7' }]);
  f.m.dns.setRecords('metadata.flows.test', [{ type: 'A', address: '169.254.169.254' }]);
  f.m.dns.setRecords('v6.flows.test', [{ type: 'AAAA', address: '::1' }]);
  f.m.dns.setRecords('compat.flows.test', [{ type: 'AAAA', address: '::7f00:1' }]);
  f.m.dns.setRecords('nat64.flows.test', [{ type: 'AAAA', address: '64:ff9b::a9fe:a9fe' }]);
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await f?.close();
});

describe('SSRF refusals', () => {
  it('refuses literal private addresses when the workflow is saved', async () => {
    const embedded = [
      'http://[::127.0.0.1]/x',
      'http://[::7f00:1]/x',
      'http://[::a9fe:a9fe]/x',
      'http://[::ffff:0:7f00:1]/x',
      'http://[64:ff9b::7f00:1]/x',
      'http://[2002:a9fe:a9fe::1]/x',
    ];
    for (const url of [
      'http://127.0.0.1/x',
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://2130706433/x',
      'http://[::ffff:127.0.0.1]/x',
      ...embedded,
    ]) {
      const res = await f.api('POST', '/workflows', {
        name: 'S',
        trigger: { type: 'MANUAL' },
        steps: [{ type: 'WEBHOOK', url }],
      });
      expect(res.status, url).toBe(422);
      expect(res.body.error.errors[0]).toMatchObject({ field: 'steps.0.url', code: 'private_address' });
    }
  });

  it('refuses at run time what a Liquid URL renders to, and host names that resolve to private addresses', async () => {
    const w = await f.createWorkflow({
      name: 'Probe',
      allowReentry: true,
      trigger: { type: 'EVENT', event: 'probe' },
      steps: [{ id: 'hook', type: 'WEBHOOK', url: `http://{{ contact.data.target }}:${port}/steal` }],
    });
    const targets = [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '[::1]',
      '[::7f00:1]',
      '[::a9fe:a9fe]',
      'internal.flows.test',
      'intranet.flows.test',
      'metadata.flows.test',
      'v6.flows.test',
      'compat.flows.test',
      'nat64.flows.test',
      'localhost',
    ];
    const targetOf = new Map<string, string>();
    for (const [i, target] of targets.entries())
      targetOf.set((await f.track(`probe${i}@dest.test`, 'probe', { target })).contact, target);
    const failed = await f.waitForExecutions(w.id, ['FAILED'], targets.length);
    const errors = new Map(failed.map((e) => [e.contactId, e.history[0]!.error!]));
    expect([...errors.values()].every((e) => /WEBHOOK_ALLOW_PRIVATE/.test(e))).toBe(true);
    // A name's refusal tells neither the address it resolved to nor anything but the URL's own host.
    const byHost = new Map(failed.map((e) => [targetOf.get(e.contactId), e.history[0]!.error!]));
    for (const host of [
      'internal.flows.test',
      'intranet.flows.test',
      'metadata.flows.test',
      'v6.flows.test',
      'compat.flows.test',
      'nat64.flows.test',
    ]) {
      expect(byHost.get(host)).toBe(`${host} resolves to a non-public address; WEBHOOK_ALLOW_PRIVATE=true allows it`);
    }
    expect(byHost.get('[::7f00:1]')).toContain('IPv4-compatible');
    expect([...errors.values()].some((e) => e.includes('metadata'))).toBe(true);
    expect(failed.every((e) => e.history.length === 1 && e.history[0]!.status === 'FAILED')).toBe(true);
    expect(requests).toBe(0);
  });
});
