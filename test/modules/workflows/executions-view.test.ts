// What an execution tells its reader: the contact's address (null once the contact is deleted), the branch a
// CONDITION took, and the email a SEND_EMAIL step made (readable at GET /emails/{id}).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkflowFixture, type WorkflowFixture } from './fixture.ts';

let f: WorkflowFixture;
beforeAll(async () => {
  f = await startWorkflowFixture();
});
afterAll(async () => f?.close());

describe('workflow executions as the API shows them', () => {
  it('name the contact, the branch taken and the email sent', async () => {
    const w = await f.createWorkflow({
      name: 'Readable',
      trigger: { type: 'EVENT', event: 'joined' },
      steps: [
        {
          id: 'check',
          type: 'CONDITION',
          if: { field: 'data.plan', operator: 'equals', value: 'pro' },
          then: [{ id: 'mail', type: 'SEND_EMAIL', templateId: f.templates.welcome }],
          else: [{ id: 'out', type: 'EXIT' }],
        },
      ],
    });
    await f.api('POST', '/contacts', { email: 'pro@bücher.example', data: { plan: 'pro' } });
    await f.api('POST', '/contacts', { email: 'free@dest.test', data: { plan: 'free' } });
    await f.track('pro@bücher.example', 'joined');
    await f.track('free@dest.test', 'joined');
    const done = await f.waitForExecutions(w.id, ['COMPLETED', 'EXITED'], 2);
    const pro = done.find((e) => e.contact?.email === 'pro@xn--bcher-kva.example')!;
    const free = done.find((e) => e.contact?.email === 'free@dest.test')!;
    expect(pro.contact).toEqual({ email: 'pro@xn--bcher-kva.example', emailUnicode: 'pro@bücher.example' });
    expect(pro.history.find((h) => h.stepId === 'check')?.detail).toEqual({ branch: 'then' });
    expect(free.history.find((h) => h.stepId === 'check')?.detail).toEqual({ branch: 'else' });

    const emailId = pro.history.find((h) => h.stepId === 'mail')?.detail?.emailId as string;
    const email = await f.api('GET', `/emails/${emailId}`);
    expect(email.status).toBe(200);
    expect(email.body.data).toMatchObject({ to: 'pro@xn--bcher-kva.example', source: { type: 'WORKFLOW', id: w.id } });

    const one = await f.api('GET', `/workflows/${w.id}/executions/${free.id}`);
    expect(one.body.data.contact).toEqual({ email: 'free@dest.test', emailUnicode: 'free@dest.test' });
    expect((await f.api('DELETE', `/contacts/${free.contactId}`)).status).toBe(200);
    expect((await f.api('GET', `/workflows/${w.id}/executions/${free.id}`)).body.data.contact).toBeNull();
  });
});
