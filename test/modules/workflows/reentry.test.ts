// allowReentry (one execution per contact ever, even when triggers race) and versioning with an execution in flight.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkflowFixture, type WorkflowFixture } from './fixture.ts';

let f: WorkflowFixture;
beforeAll(async () => {
  f = await startWorkflowFixture();
});
afterAll(async () => f?.close());

describe('reentry and versions', () => {
  it(
    'allowReentry false: one execution per contact, ever, even for simultaneous ' + 'triggers and manual starts',
    async () => {
      const w = await f.createWorkflow({
        name: 'Once',
        trigger: { type: 'EVENT', event: 'once' },
        steps: [{ id: 'd', type: 'DELAY', duration: '1s' }],
      });
      const first = await f.track('single@dest.test', 'once');
      // Ten tracked events and five manual starts for the same contact at the same moment.
      const results = await Promise.all([
        ...Array.from({ length: 10 }, () => f.api('POST', '/v1/track', { email: 'single@dest.test', event: 'once' })),
        ...Array.from({ length: 5 }, () =>
          f.api('POST', `/workflows/${w.id}/executions`, { contactId: first.contact }),
        ),
      ]);
      expect(results.slice(0, 10).every((r) => r.status === 200)).toBe(true);
      expect(results.slice(10).map((r) => r.status)).toEqual([409, 409, 409, 409, 409]);
      await f.waitForExecutions(w.id, ['COMPLETED']);
      // And after it completed, the contact never enters again.
      await f.track('single@dest.test', 'once');
      const second = await f.track('other@dest.test', 'once');
      const done = await f.waitForExecutions(w.id, ['COMPLETED'], 2);
      expect(done.map((e) => e.contactId).sort()).toEqual([first.contact, second.contact].sort());
    },
  );

  it('simultaneous first triggers of a new contact make one execution', async () => {
    const w = await f.createWorkflow({
      name: 'Race',
      trigger: { type: 'EVENT', event: 'race' },
      steps: [{ id: 'u', type: 'UPDATE_CONTACT', data: { raced: true } }],
    });
    const sentinel = await f.createWorkflow({
      name: 'Count',
      allowReentry: true,
      trigger: { type: 'EVENT', event: 'race' },
      steps: [],
    });
    await Promise.all(
      Array.from({ length: 8 }, () => f.api('POST', '/v1/track', { email: 'racer@dest.test', event: 'race' })),
    );
    await f.waitForExecutions(sentinel.id, ['COMPLETED'], 8);
    const executions = await f.waitForExecutions(w.id, ['COMPLETED']);
    expect(executions).toHaveLength(1);
  });

  it('allowReentry true: every trigger starts one', async () => {
    const w = await f.createWorkflow({
      name: 'Again',
      allowReentry: true,
      trigger: { type: 'EVENT', event: 'again' },
      steps: [{ type: 'EXIT' }],
    });
    for (let i = 0; i < 3; i++) await f.track('repeat@dest.test', 'again');
    expect(await f.waitForExecutions(w.id, ['EXITED'], 3)).toHaveLength(3);
  });

  it(
    'a running execution finishes on its version after the steps change; new ones ' + 'start on the new version',
    async () => {
      const w = await f.createWorkflow({
        name: 'Versions',
        trigger: { type: 'EVENT', event: 'ver' },
        steps: [
          { id: 'wait', type: 'DELAY', duration: '2s' },
          { id: 'mark', type: 'UPDATE_CONTACT', data: { version: 1 } },
        ],
      });
      const old = await f.track('old@dest.test', 'ver');
      await f.waitForExecutions(w.id, ['WAITING']);
      const patched = await f.api('PATCH', `/workflows/${w.id}`, {
        steps: [{ id: 'mark2', type: 'UPDATE_CONTACT', data: { version: 2 } }],
      });
      expect(patched.body.data.version).toBe(2);
      const fresh = await f.track('new@dest.test', 'ver');
      const done = await f.waitForExecutions(w.id, ['COMPLETED'], 2);
      const byContact = new Map(done.map((e) => [e.contactId, e]));
      expect(byContact.get(old.contact)).toMatchObject({ version: 1 });
      expect(byContact.get(old.contact)!.history.map((h) => h.stepId)).toEqual(['wait', 'mark']);
      expect(byContact.get(fresh.contact)).toMatchObject({ version: 2 });
      expect(byContact.get(fresh.contact)!.history.map((h) => h.stepId)).toEqual(['mark2']);
      expect((await f.api('GET', `/contacts/${old.contact}`)).body.data.data.version).toBe(1);
      expect((await f.api('GET', `/contacts/${fresh.contact}`)).body.data.data.version).toBe(2);
    },
  );
});
