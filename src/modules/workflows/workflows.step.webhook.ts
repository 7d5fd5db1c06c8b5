// WEBHOOK: a signed HTTP request to the customer's URL through the SSRF-safe client (ctx.outbound). The URL,
// headers and body render on the step render threads (workflows.render.ts). The request happens before the step's
// transaction (it may take 10 s); 5xx, 408, 429, time-outs and network errors are retried by the queue with the
// same webhook-id; a refused address, a redirect, another 4xx, or a request that cannot be made at all (a header
// the client refuses) fail the step.
import { createHash } from 'node:crypto';
import { iso } from '../../lib/http.ts';
import { OutboundRequestError } from '../../net/safe-http.ts';
import { webhookHeaders } from '../../net/standard-webhooks.ts';
import { findDormantAfterDays, toContactView } from '../contacts/index.ts';
import { findEventView } from '../events/index.ts';
import { findWorkflowById } from './workflows.repo.ts';
import { signingSecretsOf } from './workflows.signing.ts';
import { done, StepFailure, type StepInput, type StepRunner } from './workflows.outcome.ts';
import { renderStepFields } from './workflows.render.ts';
import { WEBHOOK_HEADER_LIMITS, type Step } from './workflows.types.ts';
import { hasLiquid, HEADER_CONTROL } from './workflows.validate.ts';

const RETRYABLE_STATUS = new Set([408, 425, 429]);

/** The same id on every attempt of one step run of one execution (Standard Webhooks: receivers dedupe on it). */
export function webhookIdOf(executionId: string, stepId: string): string {
  return `msg_${createHash('sha256').update(`${executionId}:${stepId}`).digest('base64url').slice(0, 27)}`;
}

/** The default body, also the variables the URL, headers and a Liquid body render with. */
async function payloadOf(ctx: Parameters<StepRunner>[0], input: StepInput) {
  const { exec } = input;
  const workflow = await findWorkflowById(ctx.db, exec.workflowId);
  const event = exec.triggerEventId
    ? await findEventView({ db: ctx.db, projectId: exec.projectId, id: exec.triggerEventId })
    : null;
  return {
    workflow: { id: exec.workflowId, name: workflow?.name ?? null, version: exec.version },
    execution: { id: exec.id, stepId: input.planned.step.id, startedAt: iso(exec.createdAt) },
    contact: toContactView(input.contact, await findDormantAfterDays({ db: ctx.db, projectId: exec.projectId })),
    event,
  };
}

/**
 * A rendered header value as it goes on the wire. Header values are bytes, and HTTP defines no character set
 * for them: text beyond ASCII goes out as its UTF-8 bytes (a Node receiver reads them back with
 * `Buffer.from(value, 'latin1').toString('utf8')`). Control characters (tab aside) fail the step.
 */
function wireValue(name: string, value: string): string {
  if (HEADER_CONTROL.test(value))
    throw new StepFailure(`headers.${name}: the rendered value contains a control character (CR, LF, NUL…)`);
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u007f]/.test(value) ? Buffer.from(value, 'utf8').toString('latin1') : value;
}

/** The step's URL, headers (as sent) and body, rendered where they hold Liquid. */
async function renderRequest(
  ctx: Parameters<StepRunner>[0],
  step: Extract<Step, { type: 'WEBHOOK' }>,
  payload: Record<string, unknown>,
) {
  const fields: Array<[string, string]> = [
    ['url', step.url],
    ...Object.entries(step.headers ?? {}).map(([name, value]): [string, string] => [`headers.${name}`, value]),
  ];
  if (typeof step.body === 'string') fields.push(['body', step.body]);
  const liquid = fields.filter(([, source]) => hasLiquid(source));
  const texts = await renderStepFields(ctx, liquid, payload);
  const rendered = new Map(liquid.map(([at], i) => [at, texts[i]!]));
  const valueOf = (at: string, source: string) => rendered.get(at) ?? source;
  const headers = Object.entries(step.headers ?? {}).map(([name, value]): [string, string] => [
    name,
    wireValue(name, valueOf(`headers.${name}`, value)),
  ]);
  const bytes = headers.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
  if (bytes > WEBHOOK_HEADER_LIMITS.renderedBytes)
    throw new StepFailure(
      `headers: the rendered headers take ${bytes} bytes; at most ${WEBHOOK_HEADER_LIMITS.renderedBytes}`,
    );
  return {
    url: valueOf('url', step.url),
    headers: Object.fromEntries(headers),
    body: typeof step.body === 'string' ? valueOf('body', step.body) : JSON.stringify(step.body ?? payload),
  };
}

/** WEBHOOK: see the file comment. */
export const runWebhook: StepRunner = async (ctx, input) => {
  const step = input.planned.step;
  if (step.type !== 'WEBHOOK') throw new Error('not a WEBHOOK step');
  const payload = await payloadOf(ctx, input);
  const { url, headers, body } = await renderRequest(ctx, step, payload);
  const signed = webhookHeaders({
    id: webhookIdOf(input.exec.id, step.id),
    body,
    secrets: await signingSecretsOf(ctx, input.exec.projectId),
  });
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  let response;
  try {
    response = await ctx.outbound.request({
      url,
      method: step.method ?? 'POST',
      body,
      headers: {
        'user-agent': 'Herald-Webhooks/1',
        ...(hasType ? {} : { 'content-type': 'application/json' }),
        ...headers,
        ...signed,
      },
    });
  } catch (error) {
    // The client's own errors say whether a retry can help; anything else came from building the request itself.
    if (!(error instanceof OutboundRequestError) || !error.retryable)
      throw new StepFailure(error instanceof Error ? error.message : String(error));
    throw error;
  }
  if (response.status >= 500 || RETRYABLE_STATUS.has(response.status))
    throw new Error(`${url} answered HTTP ${response.status}`);
  if (response.status < 200 || response.status >= 300) {
    throw new StepFailure(
      `${url} answered HTTP ${response.status}${response.status < 400 ? ' (redirects are not followed)' : ''}`,
    );
  }
  return async () => done(input, 'COMPLETED', { responseStatus: response.status, webhookId: signed['webhook-id'] });
};
