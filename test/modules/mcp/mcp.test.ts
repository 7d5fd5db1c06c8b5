// The MCP server through the official SDK's own client: over HTTP (POST /mcp) and over stdio (`herald mcp`, a
// child process relaying to the HTTP endpoint), with keys of each scope.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailFixture, type MailFixture } from '../../support/mail.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('MCP', () => {
  let m: MailFixture;
  let sender: Awaited<ReturnType<MailFixture['verifiedDomain']>>;
  let baseUrl: string;
  const clients: Client[] = [];

  async function createKey(scope: string): Promise<string> {
    const res = await m.t.app.inject({ method: 'POST', url: '/api-keys', headers: sender.auth, payload: { scope, name: `Agent (${scope})` } });
    return res.json().data.key as string;
  }
  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    clients.push(client);
    return client;
  }
  const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const json = (result: CallToolResult) => JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;

  beforeAll(async () => {
    m = await startMailFixture();
    sender = await m.verifiedDomain('agent.example.test');
    baseUrl = await m.t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await m.close();
  });

  it('lists the tools each scope may use', async () => {
    const full = await toolNames(await connect(sender.project.secretKey));
    expect(full).toEqual(expect.arrayContaining(['find_contacts', 'upsert_contact', 'send_email', 'track_event', 'verify_email', 'create_template', 'send_campaign', 'get_campaign_stats', 'overview_stats']));
    const read = await toolNames(await connect(await createKey('read')));
    expect(read).toContain('find_contacts');
    expect(read).toContain('get_email');
    for (const name of ['upsert_contact', 'send_email', 'track_event', 'create_campaign', 'send_campaign']) expect(read).not.toContain(name);
    expect(await toolNames(await connect(await createKey('sending')))).toEqual(['get_email', 'send_email', 'track_event', 'verify_email']);
  });

  it('upserts a contact and finds it again through the API', async () => {
    const client = await connect(sender.project.secretKey);
    const upserted = await call(client, 'upsert_contact', { email: 'ada@dest.test', subscribed: true, data: { plan: 'pro' } });
    expect(upserted.isError).toBeFalsy();
    expect(json(upserted)).toMatchObject({ email: 'ada@dest.test', subscribed: true, data: { plan: 'pro' } });
    const found = json(await call(client, 'find_contacts', { search: 'ada@' }));
    expect(found.items).toEqual([expect.objectContaining({ email: 'ada@dest.test' })]);
  });

  it('sends an email with a sending key, and it arrives', async () => {
    const client = await connect(await createKey('sending'));
    const sent = await call(client, 'send_email', { to: 'grace@dest.test', from: 'agent@agent.example.test', subject: 'From the agent', body: '<p>Hello</p>' });
    expect(sent.isError, JSON.stringify(sent.content)).toBeFalsy();
    const emailId = (json(sent).emails as { email: string }[])[0]!.email;
    await m.sink.waitForRecipient('grace@dest.test');
    const email = json(await call(client, 'get_email', { emailId }));
    expect(email).toMatchObject({ id: emailId, to: 'grace@dest.test' });
  });

  it('answers the recipient count and sends a campaign only with confirm: true', async () => {
    const client = await connect(sender.project.secretKey);
    for (const email of ['m1@dest.test', 'm2@dest.test']) await call(client, 'upsert_contact', { email, subscribed: true });
    const draft = json(await call(client, 'create_campaign', { name: 'Launch', subject: 'We launched', body: '<p>News</p>', from: 'news@agent.example.test', audienceType: 'ALL' }));
    const refused = await call(client, 'send_campaign', { campaignId: draft.id });
    expect(refused.isError).toBe(true);
    expect(json(refused)).toMatchObject({ sent: false, recipientCount: 3 });
    expect((await m.t.app.inject({ method: 'GET', url: `/campaigns/${String(draft.id)}`, headers: sender.auth })).json().data.status).toBe('DRAFT');
    const sent = await call(client, 'send_campaign', { campaignId: draft.id, confirm: true });
    expect(sent.isError, JSON.stringify(sent.content)).toBeFalsy();
    expect(json(sent)).toMatchObject({ sent: true, recipientCount: 3 });
    await m.sink.waitForRecipient('m2@dest.test');
  });

  it('answers invalid arguments and API refusals as tool errors, and keeps serving', async () => {
    const client = await connect(sender.project.secretKey);
    const badType = await call(client, 'upsert_contact', { email: 42 });
    expect(badType.isError).toBe(true);
    expect((badType.content[0] as { text: string }).text).toMatch(/Input validation error/);
    const badEmail = await call(client, 'upsert_contact', { email: 'not an address' });
    expect(badEmail.isError).toBe(true);
    expect(json(badEmail)).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    const missing = await call(client, 'get_contact', { contactId: '00000000-0000-4000-8000-000000000000' });
    expect(json(missing)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const reader = await connect(await createKey('read'));
    const forbidden = await call(reader, 'upsert_contact', { email: 'eve@dest.test' });
    expect(forbidden.isError).toBe(true);
    expect((forbidden.content[0] as { text: string }).text).toMatch(/not found/);
    expect((await m.t.app.inject({ method: 'GET', url: '/contacts?search=eve@', headers: sender.auth })).json().data.total).toBe(0);
    expect((await call(client, 'find_contacts', {})).isError).toBeFalsy();
  });

  it('refuses a request without a key, and the event stream with 405', async () => {
    const res = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(res.status).toBe(401);
    const stream = await fetch(`${baseUrl}/mcp`, { headers: { authorization: `Bearer ${sender.project.secretKey}`, accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
  });

  it('serves the same tools over stdio with `herald mcp`', async () => {
    const key = await createKey('read');
    const client = new Client({ name: 'desktop-agent', version: '1.0.0' });
    await client.connect(new StdioClientTransport({
      command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), 'mcp'], cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HERALD_URL: baseUrl, HERALD_API_KEY: key }, stderr: 'pipe',
    }));
    clients.push(client);
    const names = await toolNames(client);
    expect(names).toContain('find_contacts');
    expect(names).not.toContain('send_email');
    const found = json(await call(client, 'find_contacts', { search: 'ada@' }));
    expect(found.items).toEqual([expect.objectContaining({ email: 'ada@dest.test' })]);
    const refused = await call(client, 'get_contact', { contactId: 'nope' });
    expect(refused.isError).toBe(true);
  });
});
