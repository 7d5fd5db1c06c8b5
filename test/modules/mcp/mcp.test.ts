// The MCP server through the official SDK's own client: over HTTP (POST /mcp) and over stdio (`herald mcp`, a
// child process relaying to the HTTP endpoint), with keys of each scope. Every tool is called once for real.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import { until } from '../../support/until.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

const READ_TOOLS = [
  'find_contacts',
  'get_campaign_stats',
  'get_contact',
  'get_email',
  'get_template',
  'get_workflow_executions',
  'list_contact_events',
  'list_templates',
  'list_workflows',
  'overview_stats',
  'segment_members',
];
const SENDING_TOOLS = ['get_email', 'send_email', 'track_event', 'verify_email'];
const FULL_TOOLS = [
  ...new Set([
    ...READ_TOOLS,
    ...SENDING_TOOLS,
    'create_campaign',
    'create_segment',
    'create_template',
    'send_campaign',
    'upsert_contact',
  ]),
].sort();

type Json = Record<string, unknown>;
const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
const call = async (client: Client, name: string, args: Json) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const json = (result: CallToolResult) => JSON.parse(textOf(result)) as Json;
/** The data of a tool call that must succeed. */
async function ok(client: Client, name: string, args: Json): Promise<Json> {
  const result = await call(client, name, args);
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  return json(result);
}

describe('MCP', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let other: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let baseUrl: string;
  let keys: { read: string; sending: string };
  const clients: Client[] = [];
  const api = async (method: 'GET' | 'POST', url: string, payload?: Json) =>
    (await m.t.app.inject({ method, url, headers: sender.auth, ...(payload ? { payload } : {}) })).json() as {
      data: Json & { id: string };
    };

  async function createKey(payload: Json): Promise<string> {
    const res = await m.t.app.inject({ method: 'POST', url: '/api-keys', headers: sender.auth, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.key as string;
  }
  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('agent.example.test');
    other = await m.verifiedDomain('other.example.test', sender.project);
    baseUrl = await m.t.app.listen({ port: 0, host: '127.0.0.1' });
    keys = { read: await createKey({ scope: 'read' }), sending: await createKey({ scope: 'sending' }) };
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await m.close();
  });

  it('lists exactly the tools each scope may use', async () => {
    expect(await toolNames(await connect(sender.project.secretKey))).toEqual(FULL_TOOLS);
    expect(await toolNames(await connect(keys.read))).toEqual(READ_TOOLS);
    expect(await toolNames(await connect(keys.sending))).toEqual(SENDING_TOOLS);
  });

  it('upserts a contact and finds it again through the API', async () => {
    const client = await connect(sender.project.secretKey);
    const upserted = await ok(client, 'upsert_contact', {
      email: 'ada@dest.test',
      subscribed: true,
      data: { plan: 'pro' },
    });
    expect(upserted).toMatchObject({ email: 'ada@dest.test', subscribed: true, data: { plan: 'pro' } });
    const found = await ok(client, 'find_contacts', { search: 'ada@' });
    expect(found.items).toEqual([expect.objectContaining({ email: 'ada@dest.test' })]);
  });

  it(
    'tracks an event that starts a workflow, then reads the contact, its events, the ' + 'workflow and its run',
    async () => {
      const workflow = (
        await api('POST', '/workflows', {
          name: 'Beta welcome',
          enabled: true,
          trigger: { type: 'EVENT', event: 'joined_beta' },
          steps: [{ id: 'tag', type: 'UPDATE_CONTACT', data: { beta: true } }],
        })
      ).data;
      const tracked = await ok(await connect(keys.sending), 'track_event', {
        email: 'lin@dest.test',
        event: 'joined_beta',
        data: { source: 'agent' },
      });
      expect(tracked).toEqual({
        contact: expect.any(String),
        event: expect.any(String),
        timestamp: expect.any(String),
      });
      const reader = await connect(keys.read);
      const run = await until(async () => {
        const runs = await ok(reader, 'get_workflow_executions', { workflowId: workflow.id });
        const items = runs.items as Json[];
        return items.length === 1 && items[0]!.status === 'COMPLETED' ? items[0]! : null;
      }, 'the workflow run');
      expect(run).toMatchObject({ workflowId: workflow.id, contactId: tracked.contact });
      expect(await ok(reader, 'get_contact', { contactId: tracked.contact })).toMatchObject({
        id: tracked.contact,
        email: 'lin@dest.test',
        data: { beta: true },
      });
      const events = await ok(reader, 'list_contact_events', { contactId: tracked.contact });
      expect(events.items).toEqual([
        expect.objectContaining({ id: tracked.event, name: 'joined_beta', data: { source: 'agent' } }),
      ]);
      const workflows = await ok(reader, 'list_workflows', {});
      expect(workflows.items).toEqual([
        expect.objectContaining({ id: workflow.id, name: 'Beta welcome', enabled: true }),
      ]);
    },
  );

  it('creates a template and a segment, and reads them back with a read key', async () => {
    const client = await connect(sender.project.secretKey);
    const template = await ok(client, 'create_template', {
      name: 'Receipt',
      subject: 'Your receipt',
      body: '<p>Thanks {{ name }}</p>',
      type: 'TRANSACTIONAL',
    });
    expect(template).toMatchObject({
      id: expect.any(String),
      name: 'Receipt',
      subject: 'Your receipt',
      type: 'TRANSACTIONAL',
    });
    await ok(client, 'upsert_contact', { email: 'vip@dest.test', subscribed: true, data: { tier: 'vip' } });
    const segment = await ok(client, 'create_segment', {
      name: 'VIPs',
      filter: { all: [{ field: 'data.tier', operator: 'equals', value: 'vip' }] },
    });
    expect(segment).toMatchObject({ id: expect.any(String), name: 'VIPs' });
    const reader = await connect(keys.read);
    expect((await ok(reader, 'list_templates', {})).items).toEqual([
      expect.objectContaining({ id: template.id, name: 'Receipt' }),
    ]);
    expect(await ok(reader, 'get_template', { templateId: template.id })).toMatchObject({
      id: template.id,
      subject: 'Your receipt',
      body: '<p>Thanks {{ name }}</p>',
    });
    const members = await ok(reader, 'segment_members', { segmentId: segment.id });
    expect(members).toMatchObject({ total: 1, items: [expect.objectContaining({ email: 'vip@dest.test' })] });
  });

  it('sends an email with a sending key, and it arrives; a key held to another domain gets a tool error', async () => {
    const client = await connect(keys.sending);
    const sent = await ok(client, 'send_email', {
      to: 'grace@dest.test',
      from: 'agent@agent.example.test',
      subject: 'From the agent',
      body: '<p>Hello</p>',
    });
    const emailId = (sent.emails as { email: string }[])[0]!.email;
    await m.sink.waitForRecipient('grace@dest.test');
    expect(await ok(client, 'get_email', { emailId })).toMatchObject({ id: emailId, to: 'grace@dest.test' });

    const heldToOther = await connect(await createKey({ scope: 'sending', domainIds: [other.domainId] }));
    const refused = await call(heldToOther, 'send_email', {
      to: 'henry@dest.test',
      from: 'agent@agent.example.test',
      subject: 'Not from here',
      body: '<p>No</p>',
    });
    expect(refused.isError).toBe(true);
    expect(json(refused)).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message: expect.stringContaining('agent.example.test'),
    });
    expect(
      await ok(heldToOther, 'send_email', {
        to: 'henry@dest.test',
        from: 'agent@other.example.test',
        subject: 'From here',
        body: '<p>Yes</p>',
      }),
    ).toHaveProperty('emails');
  });

  it('verifies an address and reads the overview with their keys', async () => {
    expect(await ok(await connect(keys.sending), 'verify_email', { email: 'ann+news@mailinator.com' })).toMatchObject({
      email: 'ann+news@mailinator.com',
      isDisposable: true,
      isPlusAddressed: true,
    });
    const overview = await ok(await connect(keys.read), 'overview_stats', { days: 7 });
    expect(overview.days).toHaveLength(7);
    expect((overview.totals as { sent: number }).sent).toBeGreaterThanOrEqual(1);
  });

  it('creates a campaign with what the dashboard sets: a filter, fromName, replyTo, a topic', async () => {
    const client = await connect(sender.project.secretKey);
    const tools = (await client.listTools()).tools;
    const fields = Object.keys(tools.find((t) => t.name === 'create_campaign')!.inputSchema.properties ?? {});
    expect(fields).toEqual(expect.arrayContaining(['audienceFilter', 'fromName', 'replyTo', 'topicId', 'templateId']));
    const topic = await api('POST', '/topics', { name: 'Agent news', defaultSubscription: 'OPT_IN' });
    // What the dashboard sets besides the content, as the campaign reads back.
    const audience = {
      fromName: 'Agent News',
      replyTo: 'desk@agent.example.test',
      audienceType: 'FILTERED',
      audienceFilter: { all: [{ field: 'data.city', operator: 'equals', value: 'Berlin' }] },
      topicId: topic.data.id,
      ignoreFrequencyCap: true,
    };
    const draft = await ok(client, 'create_campaign', {
      name: 'Filtered',
      subject: 'For Berlin',
      body: '<p>Hi</p>',
      from: 'news@agent.example.test',
      ...audience,
    });
    expect((await api('GET', `/campaigns/${String(draft.id)}`)).data).toMatchObject({ status: 'DRAFT', ...audience });
    // The API's validation, as the API answers it: a FILTERED audience without its filter is refused.
    const refused = await call(client, 'create_campaign', {
      name: 'No filter',
      subject: 'x',
      body: '<p>x</p>',
      from: 'news@agent.example.test',
      audienceType: 'FILTERED',
    });
    expect(refused.isError).toBe(true);
  });

  describe('sending a campaign', () => {
    let client: Client;
    let campaignId: string;
    const statusOf = async () => (await api('GET', `/campaigns/${campaignId}`)).data.status;

    beforeAll(async () => {
      client = await connect(sender.project.secretKey);
      for (const email of ['m1@dest.test', 'm2@dest.test'])
        await ok(client, 'upsert_contact', { email, subscribed: true, data: { list: 'launch' } });
      const segment = await ok(client, 'create_segment', {
        name: 'Launch list',
        filter: { all: [{ field: 'data.list', operator: 'equals', value: 'launch' }] },
      });
      const draft = await ok(client, 'create_campaign', {
        name: 'Launch',
        subject: 'We launched',
        body: '<p>News</p>',
        from: 'news@agent.example.test',
        audienceType: 'SEGMENT',
        segmentId: segment.id,
      });
      campaignId = String(draft.id);
    });

    it('answers the recipient count and a confirmation first, and sends nothing without both', async () => {
      const preview = await call(client, 'send_campaign', { campaignId });
      expect(preview.isError).toBe(true);
      expect(json(preview)).toMatchObject({ sent: false, recipientCount: 2, confirmation: expect.any(String) });
      // confirm: true alone, or with a confirmation that is not this campaign's, is another preview.
      const bare = await call(client, 'send_campaign', { campaignId, confirm: true });
      expect(bare.isError).toBe(true);
      expect(json(bare)).toMatchObject({
        sent: false,
        recipientCount: 2,
        next: expect.stringMatching(/^Sending needs the confirmation/),
      });
      const forged = await call(client, 'send_campaign', {
        campaignId,
        confirm: true,
        confirmation: `${String(json(preview).confirmation).slice(0, -2)}xx`,
      });
      expect(json(forged)).toMatchObject({
        sent: false,
        next: expect.stringMatching(/^That confirmation is not one of this campaign/),
      });
      expect(await statusOf()).toBe('DRAFT');
    });

    it('refuses a confirmation once the audience changed, and sends with the new one', async () => {
      const first = json(await call(client, 'send_campaign', { campaignId }));
      await ok(client, 'upsert_contact', { email: 'm3@dest.test', subscribed: true, data: { list: 'launch' } });
      const stale = await call(client, 'send_campaign', {
        campaignId,
        confirm: true,
        confirmation: first.confirmation,
      });
      expect(stale.isError).toBe(true);
      expect(json(stale)).toMatchObject({
        sent: false,
        recipientCount: 3,
        next: expect.stringContaining('(2 then, 3 now)'),
      });
      expect(await statusOf()).toBe('DRAFT');
      const sent = await ok(client, 'send_campaign', {
        campaignId,
        confirm: true,
        confirmation: json(stale).confirmation,
      });
      expect(sent).toMatchObject({ sent: true, recipientCount: 3 });
      await m.sink.waitForRecipient('m3@dest.test');
      await until(async () => (await statusOf()) === 'SENT', 'the campaign SENT');
      expect(await ok(await connect(keys.read), 'get_campaign_stats', { campaignId })).toMatchObject({
        recipients: 3,
        sent: 3,
      });
    });
  });

  it('answers invalid arguments and API refusals as tool errors, and keeps serving', async () => {
    const client = await connect(sender.project.secretKey);
    const badType = await call(client, 'upsert_contact', { email: 42 });
    expect(badType.isError).toBe(true);
    expect(textOf(badType)).toMatch(/Input validation error/);
    const badEmail = await call(client, 'upsert_contact', { email: 'not an address' });
    expect(badEmail.isError).toBe(true);
    expect(json(badEmail)).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    const missing = await call(client, 'get_contact', { contactId: '00000000-0000-4000-8000-000000000000' });
    expect(json(missing)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const reader = await connect(keys.read);
    const forbidden = await call(reader, 'upsert_contact', { email: 'eve@dest.test' });
    expect(forbidden.isError).toBe(true);
    expect(textOf(forbidden)).toMatch(/not found/);
    expect((await api('GET', '/contacts?search=eve@')).data.total).toBe(0);
    expect((await call(client, 'find_contacts', {})).isError).toBeFalsy();
  });

  it('refuses a request without a key, and the event stream with 405', async () => {
    const res = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    const stream = await fetch(`${baseUrl}/mcp`, {
      headers: { authorization: `Bearer ${sender.project.secretKey}`, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(405);
  });

  describe('over stdio with `herald mcp`', () => {
    const command = { command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), 'mcp'] };
    const env = (extra: Record<string, string>) => ({
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...extra,
    });
    let full: Client;
    let sending: Client;

    /** A desktop agent's client: `herald mcp` started as its child, one per key. */
    async function stdioClient(key: string): Promise<Client> {
      const client = new Client({ name: 'desktop-agent', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          ...command,
          cwd: ROOT,
          env: env({ HERALD_URL: baseUrl, HERALD_API_KEY: key }),
          stderr: 'pipe',
        }),
      );
      clients.push(client);
      return client;
    }

    beforeAll(async () => {
      [full, sending] = await Promise.all([stdioClient(sender.project.secretKey), stdioClient(keys.sending)]);
    });

    it('lists the tools of each key, as over HTTP', async () => {
      expect(await toolNames(full)).toEqual(FULL_TOOLS);
      expect(await toolNames(sending)).toEqual(SENDING_TOOLS);
    });

    it('upserts a contact with a full key and sends with a sending key', async () => {
      expect(await ok(full, 'upsert_contact', { email: 'desk@dest.test', subscribed: true })).toMatchObject({
        email: 'desk@dest.test',
      });
      expect((await api('GET', '/contacts?search=desk@')).data.total).toBe(1);
      await ok(sending, 'send_email', {
        to: 'desk@dest.test',
        from: 'desk@agent.example.test',
        subject: 'From the desktop',
        body: '<p>Hi</p>',
      });
      await m.sink.waitForRecipient('desk@dest.test');
    });

    it('refuses a campaign send without confirm, and answers invalid arguments and scopes as tool errors', async () => {
      const draft = await ok(full, 'create_campaign', {
        name: 'Desk',
        subject: 'Desk news',
        body: '<p>News</p>',
        from: 'news@agent.example.test',
        audienceType: 'ALL',
      });
      const preview = await call(full, 'send_campaign', { campaignId: draft.id });
      expect(preview.isError).toBe(true);
      expect(json(preview)).toMatchObject({
        sent: false,
        recipientCount: expect.any(Number),
        confirmation: expect.any(String),
      });
      expect((await api('GET', `/campaigns/${String(draft.id)}`)).data.status).toBe('DRAFT');
      const invalid = await call(sending, 'send_email', {
        to: 'desk@dest.test',
        from: 'desk@agent.example.test',
        subject: 'x',
        body: '<p>x</p>',
        data: 'not an object',
      });
      expect(invalid.isError).toBe(true);
      expect(textOf(invalid)).toMatch(/Input validation error/);
      const outOfScope = await call(sending, 'upsert_contact', { email: 'nope@dest.test' });
      expect(outOfScope.isError).toBe(true);
      expect((await call(full, 'get_contact', { contactId: 'nope' })).isError).toBe(true);
    });

    it(
      'exits non-zero with a clear message for a missing or public key, a bad ' + 'HERALD_URL, or a refused key',
      async () => {
        /** `herald mcp` run to its end with these settings: its exit code and what it wrote to stderr. */
        const run = (extra: Record<string, string>) =>
          new Promise<{ code: number | null; stderr: string }>((resolve) => {
            const child = execFile(
              command.command,
              command.args,
              { cwd: ROOT, env: env(extra), timeout: 60_000 },
              (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
            );
          });
        const revoked = await createKey({ name: 'Revoked agent' });
        const revokedId = ((await api('GET', '/api-keys')).data.items as { id: string; prefix: string }[]).find((k) =>
          revoked.startsWith(k.prefix),
        )!.id;
        await m.t.app.inject({ method: 'DELETE', url: `/api-keys/${revokedId}`, headers: sender.auth });
        const cases: [Record<string, string>, RegExp][] = [
          [{ HERALD_URL: baseUrl }, /^herald: HERALD_API_KEY is not set/],
          [
            { HERALD_URL: baseUrl, HERALD_API_KEY: sender.project.publicKey },
            /^herald: HERALD_API_KEY is a public key \(pk_…\)/,
          ],
          [
            { HERALD_URL: 'localhost:3000', HERALD_API_KEY: keys.sending },
            /^herald: HERALD_URL must be an http\(s\) URL/,
          ],
          [
            { HERALD_URL: 'http://127.0.0.1:1', HERALD_API_KEY: keys.sending },
            /^herald: Cannot reach Herald at http:\/\/127\.0\.0\.1:1\/mcp \(HERALD_URL\)/,
          ],
          [
            { HERALD_URL: baseUrl, HERALD_API_KEY: revoked },
            /^herald: Herald at .*\/mcp refused HERALD_API_KEY \(HTTP 401\)/,
          ],
        ];
        const results = await Promise.all(cases.map(([extra]) => run(extra)));
        for (const [i, { code, stderr }] of results.entries()) {
          expect(stderr, String(cases[i]![1])).toMatch(cases[i]![1]);
          expect(stderr).not.toMatch(/\n\s+at /);
          expect(code).toBe(1);
        }
      },
      90_000,
    );
  });
});
