// Workflow definitions over HTTP: create, read, list, update (versions), delete, the 422s of invalid
// definitions naming the step path, the signing secret endpoints and the OpenAPI document.
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkflowFixture, type WorkflowFixture } from './fixture.ts';
import { repoRoot } from '../../support/paths.ts';

let f: WorkflowFixture;
beforeAll(async () => {
  f = await startWorkflowFixture({ worker: false });
});
afterAll(async () => f?.close());

async function invalid(body: Record<string, unknown>): Promise<{ field: string; code: string; message: string }[]> {
  const res = await f.api('POST', '/workflows', { name: 'Bad', trigger: { type: 'MANUAL' }, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  return res.body.error.errors;
}

describe('workflow definitions', () => {
  it('creates a disabled workflow by default, with server-assigned step ids, and reads it back', async () => {
    const res = await f.api('POST', '/workflows', {
      name: 'Welcome',
      description: 'series',
      trigger: { type: 'EVENT', event: 'signup' },
      steps: [
        { type: 'SEND_EMAIL', templateId: f.templates.welcome },
        {
          id: 'wait',
          type: 'WAIT_FOR_EVENT',
          event: 'activated',
          timeout: '2d',
          onTimeout: [{ type: 'SEND_EMAIL', templateId: f.templates.nudge }],
        },
      ],
    });
    expect(res.status).toBe(201);
    const w = res.body.data;
    expect(w).toMatchObject({
      name: 'Welcome',
      description: 'series',
      enabled: false,
      allowReentry: false,
      trigger: { type: 'EVENT', event: 'signup' },
      version: 1,
    });
    expect(w.steps[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(w.steps[1].id).toBe('wait');
    expect(w.steps[1].onTimeout[0].id).toMatch(/^[0-9a-f-]{36}$/);
    const read = await f.api('GET', `/workflows/${w.id}`);
    expect(read.body.data).toEqual(w);
    const list = await f.api('GET', '/workflows?limit=1');
    expect(list.body.data).toMatchObject({ total: 1, hasMore: false });
    expect(list.body.data.items[0].id).toBe(w.id);
  });

  it('makes a new version only when the steps change', async () => {
    const w = await f.createWorkflow({
      name: 'V',
      trigger: { type: 'MANUAL' },
      steps: [{ id: 'a', type: 'DELAY', duration: '5s' }],
    });
    const renamed = await f.api('PATCH', `/workflows/${w.id}`, {
      name: 'V2',
      steps: [{ id: 'a', type: 'DELAY', duration: '5s' }],
    });
    expect(renamed.body.data).toMatchObject({ name: 'V2', version: 1 });
    const changed = await f.api('PATCH', `/workflows/${w.id}`, {
      steps: [{ id: 'a', type: 'DELAY', duration: '10s' }],
    });
    expect(changed.body.data).toMatchObject({
      name: 'V2',
      version: 2,
      steps: [{ id: 'a', type: 'DELAY', duration: '10s' }],
    });
    const trigger = await f.api('PATCH', `/workflows/${w.id}`, {
      trigger: { type: 'EVENT', event: 'paid' },
      enabled: false,
    });
    expect(trigger.body.data).toMatchObject({ trigger: { type: 'EVENT', event: 'paid' }, enabled: false, version: 2 });
  });

  it('keeps the version when a PATCH sends back the steps and trigger it read, whatever their key order', async () => {
    const w = await f.createWorkflow({
      name: 'Same',
      trigger: { type: 'EVENT', event: 'signup' },
      steps: [
        {
          type: 'SEND_EMAIL',
          templateId: f.templates.welcome,
          data: { plan: 'pro', coupon: { code: 'X', amount: 10 } },
        },
        {
          type: 'CONDITION',
          if: {
            all: [
              { field: 'data.plan', operator: 'equals', value: 'pro' },
              { event: 'paid', operator: 'performed', within: '7d' },
            ],
          },
          then: [{ type: 'UPDATE_CONTACT', data: { vip: true }, subscribed: true }],
          else: [{ type: 'EXIT' }],
        },
        { type: 'WEBHOOK', url: 'https://hooks.example.test/x', method: 'POST', headers: { 'x-b': '2', 'x-a': '1' } },
      ],
    });
    const read = (await f.api('GET', `/workflows/${w.id}`)).body.data;
    // What the dashboard sends on save: the definition as it read it.
    const same = await f.api('PATCH', `/workflows/${w.id}`, {
      name: read.name,
      description: read.description,
      trigger: read.trigger,
      steps: read.steps,
      allowReentry: read.allowReentry,
    });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ version: 1 });
    expect(same.body.data.steps).toEqual(read.steps);
    // The same steps with every object's keys reversed are the same steps too.
    const reversed = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reversed)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reversed(x)]),
            )
          : v;
    expect(
      (await f.api('PATCH', `/workflows/${w.id}`, { steps: reversed(read.steps), trigger: reversed(read.trigger) }))
        .body.data,
    ).toMatchObject({ version: 1 });
    const edited = structuredClone(read.steps);
    edited[0].data.coupon.amount = 20;
    expect((await f.api('PATCH', `/workflows/${w.id}`, { steps: edited })).body.data).toMatchObject({ version: 2 });
  });

  it('deletes: 404 afterwards, also for another project', async () => {
    const w = await f.createWorkflow({ name: 'D', trigger: { type: 'MANUAL' } });
    const other = await f.m.t.createProject('Other');
    expect((await f.m.t.app.inject({ method: 'GET', url: `/workflows/${w.id}`, headers: other.auth })).statusCode).toBe(
      404,
    );
    expect(
      (await f.m.t.app.inject({ method: 'DELETE', url: `/workflows/${w.id}`, headers: other.auth })).statusCode,
    ).toBe(404);
    const del = await f.api('DELETE', `/workflows/${w.id}`);
    expect(del).toEqual({ status: 200, body: { success: true, data: { id: w.id, deleted: true } } });
    expect((await f.api('GET', `/workflows/${w.id}`)).status).toBe(404);
    expect((await f.api('GET', `/workflows/${w.id}/executions`)).status).toBe(404);
    expect((await f.api('DELETE', `/workflows/${w.id}`)).status).toBe(404);
    expect((await f.api('GET', '/workflows/not-an-id')).status).toBe(404);
  });

  it('refuses a missing or malformed trigger', async () => {
    const missing = await f.api('POST', '/workflows', { name: 'No trigger', steps: [] });
    expect(missing.status).toBe(422);
    expect(missing.body.error.errors[0].field).toBe('trigger');
    expect((await invalid({ trigger: { type: 'CRON' } }))[0]!.field).toBe('trigger.type');
    expect((await invalid({ trigger: { type: 'EVENT' } }))[0]!.field).toBe('trigger.event');
  });

  it('names the step path of every problem', async () => {
    const errors = await invalid({
      steps: [
        { type: 'SEND_EMAIL', templateId: f.templates.welcome },
        { type: 'TELEPORT' },
        {
          type: 'CONDITION',
          if: { field: 'data.plan', operator: 'equals', value: 'pro' },
          then: [{ type: 'SEND_EMAIL', templateId: 'not-a-template' }],
          else: [{ type: 'DELAY', duration: '3 days' }],
        },
        { type: 'WAIT_FOR_EVENT', event: '', timeout: '0m' },
        { type: 'CONDITION', if: { field: 'shoeSize', operator: 'equals', value: 1 }, then: [] },
        { type: 'UPDATE_CONTACT' },
        { type: 'WEBHOOK', url: 'ftp://x.test/', method: 'GET', headers: { 'webhook-id': 'x', 'X-Ok': 'a\nb' } },
        { id: 'dup', type: 'EXIT' },
        { id: 'dup', type: 'EXIT' },
      ],
    });
    const fields = errors.map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'steps.1.type',
        'steps.2.then.0.templateId',
        'steps.2.else.0.duration',
        'steps.3.event',
        'steps.3.timeout',
        'steps.4.if.field',
        'steps.5',
        'steps.6.url',
        'steps.6.method',
        'steps.6.headers.webhook-id',
        'steps.6.headers.X-Ok',
        'steps.8.id',
      ]),
    );
    expect(errors.find((e) => e.field === 'steps.1.type')!.code).toBe('unknown_step_type');
    expect((await invalid({ steps: [{ type: 'EXIT' }, 'not a step'] }))[0]!.field).toBe('steps.1');
    expect((await invalid({ steps: { type: 'EXIT' } }))[0]!.field).toBe('steps');
  });

  it("refuses an unknown template, another project's template, and a segment that does not exist", async () => {
    const other = await f.m.t.createProject('Elsewhere');
    const foreign = await f.m.t.app.inject({
      method: 'POST',
      url: '/templates',
      headers: other.auth,
      payload: { name: 'x', type: 'TRANSACTIONAL', subject: 's', body: 'b' },
    });
    const foreignId = foreign.json().data.id as string;
    const errors = await invalid({
      steps: [
        {
          type: 'CONDITION',
          if: { all: [] },
          then: [{ type: 'SEND_EMAIL', templateId: '0190f9c2-0000-7000-8000-000000000000' }],
        },
        { type: 'SEND_EMAIL', templateId: foreignId },
      ],
    });
    expect(errors.map((e) => [e.field, e.code])).toEqual([
      ['steps.0.then.0.templateId', 'unknown_template'],
      ['steps.1.templateId', 'unknown_template'],
    ]);
    const segment = await invalid({
      steps: [
        { type: 'CONDITION', if: { segment: '0190f9c2-0000-7000-8000-000000000001', operator: 'member' }, then: [] },
      ],
    });
    expect(segment[0]!.field).toBe('steps.0.if.segment');
  });

  it(
    'refuses a template without a sender, bad Liquid in a webhook, and a literal ' + 'private webhook address',
    async () => {
      const noSender = await f.api('POST', '/templates', { name: 'n', type: 'TRANSACTIONAL', subject: 's', body: 'b' });
      expect(
        (await invalid({ steps: [{ type: 'EXIT' }, { type: 'SEND_EMAIL', templateId: noSender.body.data.id }] })).map(
          (e) => [e.field, e.code],
        ),
      ).toEqual([['steps.1.templateId', 'template_without_sender']]);
      const errors = await invalid({
        steps: [
          { type: 'EXIT' },
          { type: 'WEBHOOK', url: 'https://hooks.test/{{ contact.id', body: '{% if %}' },
          { type: 'WEBHOOK', url: 'http://127.0.0.1:8080/hook' },
          { type: 'WEBHOOK', url: 'http://[::1]/hook' },
          { type: 'WEBHOOK', url: 'http://169.254.169.254/latest/meta-data' },
        ],
      });
      expect(errors.map((e) => [e.field, e.code])).toEqual([
        ['steps.1.url', 'template_syntax'],
        ['steps.1.body', 'template_syntax'],
        ['steps.2.url', 'private_address'],
        ['steps.3.url', 'private_address'],
        ['steps.4.url', 'private_address'],
      ]);
    },
  );

  it(
    "caps a WEBHOOK step's headers: at most 20, names of 100 characters, values of " +
      '2048 without control characters',
    async () => {
      const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
      expect(
        (await invalid({ steps: [{ type: 'WEBHOOK', url: 'https://hooks.test/', headers: many }] })).map((e) => [
          e.field,
          e.code,
        ]),
      ).toEqual([['steps.0.headers', 'too_many_headers']]);
      const errors = await invalid({
        steps: [
          {
            type: 'WEBHOOK',
            url: 'https://hooks.test/',
            headers: {
              [`X-${'n'.repeat(99)}`]: 'v',
              'X-Long': 'v'.repeat(2049),
              'X-Bell': 'a\u0007b',
              'X-Fine': `${'v'.repeat(2040)}\t{{ x }}`,
            },
          },
        ],
      });
      expect(errors.map((e) => [e.field, e.code])).toEqual([
        [`steps.0.headers.X-${'n'.repeat(99)}`, 'invalid_header'],
        ['steps.0.headers.X-Long', 'invalid_header'],
        ['steps.0.headers.X-Bell', 'invalid_header'],
      ]);
      const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`X-H${i}`, 'v'.repeat(2048)]));
      expect(
        (
          await f.api('POST', '/workflows', {
            name: 'Twenty',
            trigger: { type: 'MANUAL' },
            steps: [{ type: 'WEBHOOK', url: 'https://hooks.test/', headers: twenty }],
          })
        ).status,
      ).toBe(201);
    },
  );

  it('validates PATCHed steps the same way and keeps the workflow unchanged', async () => {
    const w = await f.createWorkflow({ name: 'P', trigger: { type: 'MANUAL' }, steps: [{ id: 'a', type: 'EXIT' }] });
    const res = await f.api('PATCH', `/workflows/${w.id}`, {
      steps: [{ type: 'EXIT' }, { type: 'DELAY', duration: 'soon' }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.errors[0].field).toBe('steps.1.duration');
    expect((await f.api('GET', `/workflows/${w.id}`)).body.data).toMatchObject({
      version: 1,
      steps: [{ id: 'a', type: 'EXIT' }],
    });
  });

  it('gives the signing secret, the same each time, and rotates it', async () => {
    const first = await f.api('GET', '/workflows/signing-secret');
    expect(first.status).toBe(200);
    expect(first.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect((await f.api('GET', '/workflows/signing-secret')).body.data.secret).toBe(first.body.data.secret);
    const rotated = await f.api('POST', '/workflows/signing-secret/rotate');
    expect(rotated.body.data.secret).not.toBe(first.body.data.secret);
    expect(rotated.body.data.previousValidUntil).not.toBeNull();
    const other = await f.m.t.createProject('Third');
    const theirs = await f.m.t.app.inject({ method: 'GET', url: '/workflows/signing-secret', headers: other.auth });
    expect(theirs.json().data.secret).not.toBe(rotated.body.data.secret);
  });

  it('accepts the welcome series of docs/workflows.md as it is written', async () => {
    const readme = fs.readFileSync(path.join(repoRoot, 'docs/workflows.md'), 'utf8');
    const json = /curl -X POST http:\/\/localhost:3000\/workflows [^\n]*-d '(\{[\s\S]*?\})'\n/
      .exec(readme)![1]!
      .replace('<welcome template id>', f.templates.welcome)
      .replace('<nudge template id>', f.templates.nudge);
    const res = await f.api('POST', '/workflows', JSON.parse(json));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.steps.map((s: { id: string }) => s.id)).toEqual(['welcome', 'wait-activation', 'tag']);
  });

  it('documents every workflow endpoint with summary and operationId', async () => {
    const doc = (await f.m.t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const ops = [
      ['/workflows', 'get'],
      ['/workflows', 'post'],
      ['/workflows/{id}', 'get'],
      ['/workflows/{id}', 'patch'],
      ['/workflows/{id}', 'delete'],
      ['/workflows/{id}/executions', 'get'],
      ['/workflows/{id}/executions', 'post'],
      ['/workflows/{id}/executions/{executionId}', 'get'],
      ['/workflows/{id}/executions/{executionId}/cancel', 'post'],
      ['/workflows/signing-secret', 'get'],
      ['/workflows/signing-secret/rotate', 'post'],
    ];
    for (const [p, method] of ops) {
      const op = doc.paths[p!]?.[method!];
      expect(op, `${method} ${p}`).toBeDefined();
      expect(op.summary).toBeTruthy();
      expect(op.operationId).toBeTruthy();
    }
    expect(doc.components.schemas.WorkflowStep).toBeDefined();
    expect(doc.components.schemas.WorkflowExecution).toBeDefined();
  });
});
