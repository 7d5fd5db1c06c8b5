// The Liquid of workflow steps (SEND_EMAIL's template; WEBHOOK's URL, headers and body), rendered on render
// threads of the engine's own, each step within the render budget of one request (RENDER_BUDGET_MS,
// RENDER_BUDGET_CHARS): a heavy template neither stalls the process nor takes the threads /v1/send renders on.
// A template error or an overrun budget fails the step (a retry would render the same); a pool that is
// saturated, or a thread that died, is retried by the queue.
import type { AppContext } from '../../context.types.ts';
import { FieldTemplateError, RenderBudgetError, type RenderBudget } from '../../mail/render-batch.ts';
import { RenderPool } from '../../mail/render-pool.ts';
import { TemplateError, type RenderedMessage } from '../../mail/render.ts';
import { StepFailure } from './workflows.outcome.ts';

/** Threads of the step pool: two, so one heavy step cannot hold them all. */
const STEP_RENDER_THREADS = 2;

const STEP_POOL = Symbol("the workflow steps' render pool");
const stepPool = (ctx: AppContext): RenderPool =>
  ctx.resources.of(
    STEP_POOL,
    () => new RenderPool(STEP_RENDER_THREADS),
    (pool) => pool.close(),
  );

function budgetProblem(error: RenderBudgetError): StepFailure {
  const { budget } = error;
  return new StepFailure(
    error.reason === 'time'
      ? `rendering the step takes more than ${budget.timeMs / 1000} s, ` +
        `its render budget (RENDER_BUDGET_MS); simplify the template`
      : `the step's rendered text exceeds ${budget.maxChars} characters, its render budget (RENDER_BUDGET_CHARS)`,
  );
}

const stepBudget = (ctx: AppContext): RenderBudget => ctx.config.renderBudget;

/** A SEND_EMAIL step's message; problems of the template fail the step, naming the template. */
export async function renderStepMessage(
  ctx: AppContext,
  input: { templateId: string; subject: string; html: string; variables: Record<string, unknown> },
): Promise<RenderedMessage> {
  try {
    const [message] = await stepPool(ctx).render({
      subject: input.subject,
      html: input.html,
      variables: [input.variables],
      budget: stepBudget(ctx),
    });
    return message!;
  } catch (error) {
    if (error instanceof RenderBudgetError) throw budgetProblem(error);
    if (error instanceof TemplateError) throw new StepFailure(`template ${input.templateId}: ${error.message}`);
    throw error;
  }
}

/** Plain Liquid fields of a step (`[name, source]`), rendered in order; problems fail the step, naming the field. */
export async function renderStepFields(
  ctx: AppContext,
  fields: Array<[string, string]>,
  variables: Record<string, unknown>,
): Promise<string[]> {
  if (fields.length === 0) return [];
  try {
    return await stepPool(ctx).renderFields({ fields, variables, budget: stepBudget(ctx) });
  } catch (error) {
    if (error instanceof RenderBudgetError) throw budgetProblem(error);
    if (error instanceof FieldTemplateError) throw new StepFailure(error.message);
    throw error;
  }
}
