// A segment or topic named by a workflow's CONDITION (at any depth of steps and filter) and a template sent by a
// SEND_EMAIL step cannot be deleted while a version that names them is in use: the current version of a
// workflow that is not deleted (enabled or not), or a version an execution still runs on. 409 naming the workflow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkflowFixture, type WorkflowFixture } from './fixture.ts';

let f: WorkflowFixture;
beforeAll(async () => {
  f = await startWorkflowFixture();
});
afterAll(async () => f?.close());

async function segment(name: string): Promise<string> {
  const res = await f.api('POST', '/segments', {
    name,
    filter: { field: 'data.plan', operator: 'equals', value: 'pro' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

async function template(name: string): Promise<string> {
  const res = await f.api('POST', '/templates', {
    name,
    type: 'TRANSACTIONAL',
    subject: 's',
    body: '<p>b</p>',
    from: 'hello@flows.test',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

async function expectConflict(url: string, workflow: { id: string; name: string }) {
  const res = await f.api('DELETE', url);
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expect(res.body.error.code).toBe('CONFLICT');
  expect(res.body.error.message).toContain(`"${workflow.name}" (${workflow.id})`);
}

/** A CONDITION deep inside a WAIT_FOR_EVENT's onTimeout, whose filter names the segment under all → not → any. */
const deepCondition = (segmentId: string, then: unknown[] = []) => ({
  id: 'wait',
  type: 'WAIT_FOR_EVENT',
  event: 'activated',
  timeout: '1d',
  onTimeout: [
    {
      id: 'check',
      type: 'CONDITION',
      if: {
        all: [
          { field: 'subscribed', operator: 'equals', value: true },
          { not: { any: [{ segment: segmentId, operator: 'member' }] } },
        ],
      },
      then,
    },
  ],
});

describe('deleting what a workflow uses', () => {
  it(
    '409 for a segment a CONDITION names at any depth, also in a disabled workflow; ' +
      '200 once no version in use names it',
    async () => {
      const used = await segment('Pro users');
      const w = await f.createWorkflow({
        name: 'Deep condition',
        enabled: false,
        trigger: { type: 'MANUAL' },
        steps: [deepCondition(used)],
      });
      await expectConflict(`/segments/${used}`, { id: w.id, name: 'Deep condition' });
      // A segment id inside step data is not a use.
      const other = await segment('Mentioned in data');
      await f.createWorkflow({
        name: 'Data only',
        trigger: { type: 'MANUAL' },
        steps: [{ type: 'UPDATE_CONTACT', data: { segment: other, if: { segment: other } } }],
      });
      expect((await f.api('DELETE', `/segments/${other}`)).status).toBe(200);
      // A new version without it, and no execution on the old one: the segment can go.
      expect((await f.api('PATCH', `/workflows/${w.id}`, { steps: [{ type: 'EXIT' }] })).status).toBe(200);
      expect((await f.api('DELETE', `/segments/${used}`)).status).toBe(200);
    },
  );

  it(
    '409 while an execution still runs on a version that names the segment or topic ' + 'or sends the template',
    async () => {
      const seg = await segment('Old version segment');
      const tpl = await template('Old version template');
      const topic = (await f.api('POST', '/topics', { name: 'Old version topic', defaultSubscription: 'OPT_OUT' })).body
        .data.id as string;
      const w = await f.createWorkflow({
        name: 'Long wait',
        trigger: { type: 'MANUAL' },
        steps: [
          { id: 'hold', type: 'DELAY', duration: '1d' },
          {
            type: 'CONDITION',
            if: {
              any: [
                { segment: seg, operator: 'notMember' },
                { topic, operator: 'notSubscribed' },
              ],
            },
            then: [{ type: 'SEND_EMAIL', templateId: tpl }],
          },
        ],
      });
      const contact = await f.api('POST', '/contacts', { email: 'waiting@dest.test' });
      const started = await f.api('POST', `/workflows/${w.id}/executions`, { contactId: contact.body.data.id });
      expect(started.status).toBe(201);
      await f.waitForExecutions(w.id, ['WAITING']);
      expect((await f.api('PATCH', `/workflows/${w.id}`, { steps: [{ type: 'EXIT' }] })).body.data.version).toBe(2);
      await expectConflict(`/segments/${seg}`, { id: w.id, name: 'Long wait' });
      await expectConflict(`/templates/${tpl}`, { id: w.id, name: 'Long wait' });
      await expectConflict(`/topics/${topic}`, { id: w.id, name: 'Long wait' });
      expect((await f.api('POST', `/workflows/${w.id}/executions/${started.body.data.id}/cancel`)).status).toBe(200);
      expect((await f.api('DELETE', `/segments/${seg}`)).status).toBe(200);
      expect((await f.api('DELETE', `/templates/${tpl}`)).status).toBe(200);
      expect((await f.api('DELETE', `/topics/${topic}`)).status).toBe(200);
    },
  );

  it('409 for a template a SEND_EMAIL step sends from inside a branch; 200 once the workflow is deleted', async () => {
    const tpl = await template('Branch template');
    const w = await f.createWorkflow({
      name: 'Branchy',
      trigger: { type: 'EVENT', event: 'branchy' },
      steps: [
        {
          type: 'CONDITION',
          if: { field: 'subscribed', operator: 'equals', value: true },
          then: [],
          else: [
            { type: 'WAIT_FOR_EVENT', event: 'x', timeout: '1h', onEvent: [{ type: 'SEND_EMAIL', templateId: tpl }] },
          ],
        },
      ],
    });
    await expectConflict(`/templates/${tpl}`, { id: w.id, name: 'Branchy' });
    expect((await f.api('GET', `/templates/${tpl}`)).status).toBe(200);
    expect((await f.api('DELETE', `/workflows/${w.id}`)).status).toBe(200);
    expect((await f.api('DELETE', `/templates/${tpl}`)).status).toBe(200);
    expect((await f.api('DELETE', `/templates/${tpl}`)).status).toBe(404);
  });
});
