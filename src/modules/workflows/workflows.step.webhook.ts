// WEBHOOK: a signed HTTP request to the customer's URL through the SSRF-safe client (ctx.outbound). The request
// happens before the step's transaction (it may take 10 s); 5xx, 408, 429, time-outs and network errors are
// retried by the queue with the same webhook-id; a refused address, a redirect or another 4xx fail the step.
import { createHash } from 'node:crypto';
import { iso } from '../../lib/http.ts';
import { renderText, TemplateError } from '../../mail/render.ts';
import { OutboundRequestError } from '../../net/safe-http.ts';
import { webhookHeaders } from '../../net/standard-webhooks.ts';
import { toContactView } from '../contacts/index.ts';
import { findEventView } from '../events/index.ts';
import { findWorkflowById } from './workflows.repo.ts';
import { signingSecretsOf } from './workflows.signing.ts';
import { done, StepFailure, type StepInput, type StepRunner } from './workflows.outcome.ts';

const RETRYABLE_STATUS = new Set([408, 425, 429]);

/** The same id on every attempt of one step run of one execution (Standard Webhooks: receivers dedupe on it). */
export function webhookIdOf(executionId: string, stepId: string): string {
  return `msg_${createHash('sha256').update(`${executionId}:${stepId}`).digest('base64url').slice(0, 27)}`;
}

/** The default body, also the variables the URL, headers and a Liquid body render with. */
async function payloadOf(ctx: Parameters<StepRunner>[0], input: StepInput) {
  const { exec } = input;
  const workflow = await findWorkflowById(ctx.db, exec.workflowId);
  const event = exec.triggerEventId ? await findEventView({ db: ctx.db, projectId: exec.projectId, id: exec.triggerEventId }) : null;
  return {
    workflow: { id: exec.workflowId, name: workflow?.name ?? null, version: exec.version },
    execution: { id: exec.id, stepId: input.planned.step.id, startedAt: iso(exec.createdAt) },
    contact: toContactView(input.contact),
    event,
  };
}

function render(source: string, variables: Record<string, unknown>, what: string): string {
  try {
    return renderText(source, variables);
  } catch (error) {
    if (error instanceof TemplateError) throw new StepFailure(`${what}: ${error.message.replace(/^text: /, '')}`);
    throw error;
  }
}

/** WEBHOOK: see the file comment. */
export const runWebhook: StepRunner = async (ctx, input) => {
  const step = input.planned.step;
  if (step.type !== 'WEBHOOK') throw new Error('not a WEBHOOK step');
  const payload = await payloadOf(ctx, input);
  const url = render(step.url, payload, 'url');
  const headers = Object.fromEntries(Object.entries(step.headers ?? {}).map(([name, value]) => [name, render(value, payload, `headers.${name}`)]));
  const body = typeof step.body === 'string' ? render(step.body, payload, 'body') : JSON.stringify(step.body ?? payload);
  if (/[\r\n\0]/.test(Object.values(headers).join(''))) throw new StepFailure('a rendered header value contains CR, LF or NUL');
  const signed = webhookHeaders({ id: webhookIdOf(input.exec.id, step.id), body, secrets: await signingSecretsOf(ctx, input.exec.projectId) });
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  let response;
  try {
    response = await ctx.outbound.request({
      url, method: step.method ?? 'POST', body,
      headers: { 'user-agent': 'Herald-Webhooks/1', ...(hasType ? {} : { 'content-type': 'application/json' }), ...headers, ...signed },
    });
  } catch (error) {
    if (error instanceof OutboundRequestError && !error.retryable) throw new StepFailure(`${error.message}`);
    throw error;
  }
  if (response.status >= 500 || RETRYABLE_STATUS.has(response.status)) throw new Error(`${url} answered HTTP ${response.status}`);
  if (response.status < 200 || response.status >= 300) {
    throw new StepFailure(`${url} answered HTTP ${response.status}${response.status < 400 ? ' (redirects are not followed)' : ''}`);
  }
  return async () => done(input, 'COMPLETED', { responseStatus: response.status, webhookId: signed['webhook-id'] });
};
