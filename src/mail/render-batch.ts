// The work a render thread does (render-pool.ts), within one budget (total time and total output), and the
// messages that carry it across the thread boundary: one template rendered for many recipients (a request's
// messages, or only their links), or plain Liquid fields rendered with one set of variables (a workflow step's URL,
// headers, body).
import { linksIn } from './links.ts';
import {
  DEFAULT_RENDER_LIMITS,
  renderTemplate,
  renderText,
  TemplateError,
  type RenderedMessage,
  type TemplateField,
} from './render.ts';

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

/** Plain Liquid fields (no HTML escaping, no text part) rendered with one set of variables. */
export interface FieldBatch {
  /** Each field's name (for errors) and Liquid source; the result has one string per field, in order. */
  fields: Array<[name: string, source: string]>;
  variables: Record<string, unknown>;
  budget?: Partial<RenderBudget> | undefined;
}

/** Work for a render thread: `links` renders a batch's messages for their links alone (renderLinksBatch). */
export type RenderTask =
  | { kind: 'messages'; batch: RenderBatch }
  | { kind: 'links'; batch: RenderBatch }
  | { kind: 'fields'; batch: FieldBatch };

/** The links of one rendered message (linksIn of its HTML), or null when its body does not render for its variables. */
export type MessageLinks = string[] | null;

/** A request whose messages together take more time or make more output than its budget allows. */
export class RenderBudgetError extends Error {
  override name = 'RenderBudgetError';
  constructor(
    readonly reason: 'time' | 'size',
    readonly budget: RenderBudget,
  ) {
    super(
      reason === 'time'
        ? `rendering the messages of this request takes more than ${budget.timeMs / 1000} s in total`
        : `the rendered messages of this request exceed ${budget.maxChars} characters in total`,
    );
  }
}

export function budgetOf(partial?: Partial<RenderBudget>): RenderBudget {
  return { ...DEFAULT_RENDER_BUDGET, ...partial };
}

/**
 * Renders items in order within a budget, stopping with a RenderBudgetError as soon as it is spent: each
 * item's render limit is cut to the time that is left (and to `itemLimitMs`), and their outputs' sizes add up.
 * A template error of an item goes through `rethrow` (to name the item).
 */
function renderWithin<I, O>(
  items: readonly I[],
  partial: Partial<RenderBudget> | undefined,
  opts: {
    itemLimitMs: number;
    render: (item: I, timeoutMs: number) => O;
    size: (output: O) => number;
    rethrow?: (error: TemplateError, item: I) => Error;
  },
): O[] {
  const budget = budgetOf(partial);
  const started = performance.now();
  const spent = () => performance.now() - started;
  const outputs: O[] = [];
  let chars = 0;
  for (const item of items) {
    const left = budget.timeMs - spent();
    if (left <= 0) throw new RenderBudgetError('time', budget);
    let output: O;
    try {
      output = opts.render(item, Math.min(opts.itemLimitMs, left));
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      // An item stopped by the time left over, not by its own limit, is the budget's.
      if (error.kind === 'limit' && left < opts.itemLimitMs && spent() >= budget.timeMs)
        throw new RenderBudgetError('time', budget);
      throw opts.rethrow ? opts.rethrow(error, item) : error;
    }
    chars += opts.size(output);
    if (chars > budget.maxChars) throw new RenderBudgetError('size', budget);
    outputs.push(output);
  }
  return outputs;
}

/** Renders the batch's messages in order within its budget (each field also within its usual limit). */
export function renderBatch(batch: RenderBatch): RenderedMessage[] {
  return renderWithin(batch.variables, batch.budget, {
    itemLimitMs: DEFAULT_RENDER_LIMITS.renderTimeoutMs,
    render: (variables, renderTimeoutMs) =>
      renderTemplate({ subject: batch.subject, html: batch.html, variables, limits: { renderTimeoutMs } }),
    size: (message) => message.subject.length + message.html.length + message.text.length,
  });
}

/**
 * The links of each message of the batch, in order within its budget: linksIn of the HTML renderBatch makes (the
 * subject and text part are not rendered), so only the links leave the thread. A message whose body does not render for
 * its variables (a syntax or render error) has null; a limit (one render too slow or too large) stops the batch, as in
 * renderBatch. The size budget counts the links' characters.
 */
export function renderLinksBatch(batch: RenderBatch): MessageLinks[] {
  return renderWithin(batch.variables, batch.budget, {
    itemLimitMs: DEFAULT_RENDER_LIMITS.renderTimeoutMs,
    render: (variables, renderTimeoutMs): MessageLinks => {
      try {
        return linksIn(
          renderTemplate({ subject: '', html: batch.html, text: '', variables, limits: { renderTimeoutMs } }).html,
        );
      } catch (error) {
        if (error instanceof TemplateError && error.kind !== 'limit') return null;
        throw error;
      }
    },
    size: (links) => links?.reduce((chars, link) => chars + link.length, 0) ?? 0,
  });
}

/** A field of a FieldBatch that does not render: its TemplateError, with the field's name in front. */
export class FieldTemplateError extends TemplateError {
  override name = 'FieldTemplateError';
  constructor(
    readonly at: string,
    detail: string,
    kind: TemplateError['kind'],
    line?: number,
    column?: number,
  ) {
    super(detail, kind, 'text', line, column);
    this.message = line === undefined ? `${at}: ${detail}` : `${at}: ${detail} (line ${line}, column ${column})`;
  }
}

/**
 * Renders the batch's fields in order within its budget. Off the event loop, a field may take all the time
 * left (not a field's usual limit): a heavy field stops with a RenderBudgetError once the budget is spent.
 */
export function renderFieldBatch(batch: FieldBatch): string[] {
  return renderWithin(batch.fields, batch.budget, {
    itemLimitMs: Infinity,
    render: ([, source], renderTimeoutMs) => renderText(source, batch.variables, { renderTimeoutMs }),
    size: (text) => text.length,
    rethrow: (error, [at]) => new FieldTemplateError(at, error.detail, error.kind, error.line, error.column),
  });
}

/** A thread's answer to one task; errors travel as data (a structured clone keeps no class). */
export type RenderReply =
  | { ok: true; value: RenderedMessage[] | MessageLinks[] | string[] }
  | {
      ok: false;
      error: {
        type: 'template';
        detail: string;
        kind: TemplateError['kind'];
        field: TemplateField;
        at?: string | undefined;
        line?: number | undefined;
        column?: number | undefined;
      };
    }
  | { ok: false; error: { type: 'budget'; reason: RenderBudgetError['reason']; budget: RenderBudget } }
  | { ok: false; error: { type: 'other'; message: string } };

/** Runs a task in a render thread: never throws, the pool turns the reply back into a result or an error. */
export function answerRenderTask(task: RenderTask): RenderReply {
  try {
    const value =
      task.kind === 'messages'
        ? renderBatch(task.batch)
        : task.kind === 'links'
          ? renderLinksBatch(task.batch)
          : renderFieldBatch(task.batch);
    return { ok: true, value };
  } catch (error) {
    if (error instanceof TemplateError) {
      const at = error instanceof FieldTemplateError ? error.at : undefined;
      return {
        ok: false,
        error: {
          type: 'template',
          detail: error.detail,
          kind: error.kind,
          field: error.field,
          at,
          line: error.line,
          column: error.column,
        },
      };
    }
    if (error instanceof RenderBudgetError)
      return { ok: false, error: { type: 'budget', reason: error.reason, budget: error.budget } };
    return { ok: false, error: { type: 'other', message: error instanceof Error ? error.message : String(error) } };
  }
}

/** The result of a reply, or the error it carries, as the same classes a render in this thread throws. */
export function resultOfReply(reply: RenderReply): RenderedMessage[] | MessageLinks[] | string[] {
  if (reply.ok) return reply.value;
  const { error } = reply;
  if (error.type === 'template') {
    if (error.at !== undefined)
      throw new FieldTemplateError(error.at, error.detail, error.kind, error.line, error.column);
    throw new TemplateError(error.detail, error.kind, error.field, error.line, error.column);
  }
  if (error.type === 'budget') throw new RenderBudgetError(error.reason, error.budget);
  throw new Error(`render thread: ${error.message}`);
}
