/**
 * Workflow test helpers on the mail fixture (real DNS server, SMTP sink, app with its worker): a project
 * with a verified sender and templates, and calls for the workflow endpoints.
 */
import { startMailFixture, type MailFixture } from '../../support/mail.ts';
import type { TestAppOptions } from '../../support/app.ts';
import { until } from '../../support/until.ts';

export interface Execution {
  id: string;
  workflowId: string;
  version: number;
  contactId: string;
  contact: { email: string; emailUnicode: string } | null;
  status: string;
  currentStepId: string | null;
  history: {
    stepId: string;
    type: string;
    status: string;
    at: string;
    error?: string;
    detail?: Record<string, unknown>;
  }[];
  startedAt: string;
  finishedAt: string | null;
}

export interface WorkflowFixture {
  m: MailFixture;
  auth: { authorization: string };
  projectId: string;
  templates: { welcome: string; nudge: string; marketing: string };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  api(method: string, url: string, payload?: unknown): Promise<{ status: number; body: any }>;
  createWorkflow(body: Record<string, unknown>): Promise<{ id: string; steps: { id: string }[]; version: number }>;
  track(email: string, event: string, data?: Record<string, unknown>): Promise<{ contact: string; event: string }>;
  executions(workflowId: string, query?: string): Promise<Execution[]>;
  /** Polls until `workflowId` has `count` executions that are all in one of `statuses`. */
  waitForExecutions(workflowId: string, statuses: string[], count?: number, limitMs?: number): Promise<Execution[]>;
  close(): Promise<void>;
}

export const SENDER = 'hello@flows.test';

export async function startWorkflowFixture(options: TestAppOptions = {}): Promise<WorkflowFixture> {
  const m = await startMailFixture(options);
  const { auth, project } = await m.verifiedDomain('flows.test');
  const api: WorkflowFixture['api'] = async (method, url, payload) => {
    const res = await m.t.app.inject({
      method: method as 'GET',
      url,
      headers: auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  const template = async (name: string, type: string, subject: string, body: string) => {
    const res = await api('POST', '/templates', { name, type, subject, body, from: SENDER, fromName: 'Flows' });
    if (res.status !== 201) throw new Error(`template: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  };
  const templates = {
    welcome: await template(
      'Welcome',
      'TRANSACTIONAL',
      'Welcome {{ firstName ?? "there" }}',
      '<p>Hi {{ firstName ?? "there" }}, plan {{ plan }}</p>',
    ),
    nudge: await template('Nudge', 'TRANSACTIONAL', 'Still there?', '<p>Activate your account</p>'),
    marketing: await template(
      'News',
      'MARKETING',
      'News',
      '<p>News <a href="{{ unsubscribeUrl }}">unsubscribe</a></p>',
    ),
  };
  const executions: WorkflowFixture['executions'] = async (workflowId, query = '') => {
    const res = await api('GET', `/workflows/${workflowId}/executions?limit=100${query}`);
    if (res.status !== 200) throw new Error(`executions: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.items;
  };
  return {
    m,
    auth,
    projectId: project.id,
    templates,
    api,
    executions,
    async createWorkflow(body) {
      const res = await api('POST', '/workflows', { enabled: true, ...body });
      if (res.status !== 201) throw new Error(`createWorkflow: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async track(email, event, data) {
      const res = await api('POST', '/v1/track', { email, event, ...(data ? { data } : {}) });
      if (res.status !== 200) throw new Error(`track: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async waitForExecutions(workflowId, statuses, count = 1, limitMs = 30_000) {
      let items: Execution[] = [];
      const reached = async () => {
        items = await executions(workflowId);
        return items.length >= count && items.every((e) => statuses.includes(e.status)) && items;
      };
      const seen = () => JSON.stringify(items.map((e) => [e.status, e.history]));
      return until(
        reached,
        () => `executions of ${workflowId} did not reach ${statuses.join('/')}: ${seen()}`,
        limitMs,
      );
    },
    close: () => m.close(),
  };
}
