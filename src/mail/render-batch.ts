// One template rendered for many recipients within one request's budget (total time and total output):
// the work a render thread does (render-pool.ts), and the messages that carry it across the thread boundary.
import { DEFAULT_RENDER_LIMITS, renderTemplate, TemplateError, type RenderedMessage, type TemplateField } from './render.ts';

export interface RenderBudget {
  /** Wall-clock time of all of a request's renders together, in ms. */
  timeMs: number;
  /** Characters of all its rendered subjects, HTML and text parts together. */
  maxChars: number;
}

/** A request's budget: ample for 50 large newsletters, and a bound on what one request can hold a thread for. */
export const DEFAULT_RENDER_BUDGET: Readonly<RenderBudget> = Object.freeze({ timeMs: 5_000, maxChars: 20_000_000 });

export interface RenderBatch {
  subject: string;
  html: string;
  /** The variables of each message, in order: one message is rendered for each. */
  variables: Array<Record<string, unknown>>;
  budget?: Partial<RenderBudget> | undefined;
}

/** A request whose messages together take more time or make more output than its budget allows. */
export class RenderBudgetError extends Error {
  override name = 'RenderBudgetError';
  constructor(readonly reason: 'time' | 'size', readonly budget: RenderBudget) {
    super(reason === 'time'
      ? `rendering the messages of this request takes more than ${budget.timeMs / 1000} s in total`
      : `the rendered messages of this request exceed ${budget.maxChars} characters in total`);
  }
}

export function budgetOf(partial?: Partial<RenderBudget>): RenderBudget {
  return { ...DEFAULT_RENDER_BUDGET, ...partial };
}

/**
 * Renders the batch's messages in order, stopping with a RenderBudgetError as soon as the budget is spent:
 * each field's render limit is cut to the time that is left, so a heavy template stops within the budget.
 */
export function renderBatch(batch: RenderBatch): RenderedMessage[] {
  const budget = budgetOf(batch.budget);
  const started = performance.now();
  const spent = () => performance.now() - started;
  const messages: RenderedMessage[] = [];
  let chars = 0;
  for (const variables of batch.variables) {
    const left = budget.timeMs - spent();
    if (left <= 0) throw new RenderBudgetError('time', budget);
    let message: RenderedMessage;
    try {
      message = renderTemplate({ subject: batch.subject, html: batch.html, variables, limits: { renderTimeoutMs: Math.min(DEFAULT_RENDER_LIMITS.renderTimeoutMs, left) } });
    } catch (error) {
      // A field stopped by the time left over, not by its own limit, is the request's budget.
      if (error instanceof TemplateError && error.kind === 'limit' && left < DEFAULT_RENDER_LIMITS.renderTimeoutMs && spent() >= budget.timeMs) {
        throw new RenderBudgetError('time', budget);
      }
      throw error;
    }
    chars += message.subject.length + message.html.length + message.text.length;
    if (chars > budget.maxChars) throw new RenderBudgetError('size', budget);
    messages.push(message);
  }
  return messages;
}

/** A thread's answer to one batch; errors travel as data (a structured clone keeps no class). */
export type RenderReply =
  | { ok: true; messages: RenderedMessage[] }
  | { ok: false; error: { type: 'template'; detail: string; kind: TemplateError['kind']; field: TemplateField; line?: number | undefined; column?: number | undefined } }
  | { ok: false; error: { type: 'budget'; reason: RenderBudgetError['reason']; budget: RenderBudget } }
  | { ok: false; error: { type: 'other'; message: string } };

/** Runs a batch in a render thread: never throws, the pool turns the reply back into a result or an error. */
export function answerRenderBatch(batch: RenderBatch): RenderReply {
  try {
    return { ok: true, messages: renderBatch(batch) };
  } catch (error) {
    if (error instanceof TemplateError) {
      return { ok: false, error: { type: 'template', detail: error.detail, kind: error.kind, field: error.field, line: error.line, column: error.column } };
    }
    if (error instanceof RenderBudgetError) return { ok: false, error: { type: 'budget', reason: error.reason, budget: error.budget } };
    return { ok: false, error: { type: 'other', message: error instanceof Error ? error.message : String(error) } };
  }
}

/** The messages of a reply, or the error it carries, as the same classes a render in this thread throws. */
export function resultOfReply(reply: RenderReply): RenderedMessage[] {
  if (reply.ok) return reply.messages;
  const { error } = reply;
  if (error.type === 'template') throw new TemplateError(error.detail, error.kind, error.field, error.line, error.column);
  if (error.type === 'budget') throw new RenderBudgetError(error.reason, error.budget);
  throw new Error(`render thread: ${error.message}`);
}
