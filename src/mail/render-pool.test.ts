import { afterAll, describe, expect, it } from 'vitest';
import { renderBatch, RenderBudgetError } from './render-batch.ts';
import { RenderPool } from './render-pool.ts';
import { TemplateError } from './render.ts';
import { until } from '../../test/support/until.ts';

const MEDIUM = '{% for a in (1..60) %}{% for b in (1..60) %}{% endfor %}{% endfor %}';
// A billion loop iterations: past any budget (the range made once, so only time, not the memory limit, stops it).
const ENDLESS =
  '{% assign r = (1..1000) %}{% for a in r %}{% for b in r %}{% for c in r %}{% endfor %}{% endfor %}{% endfor %}';
// Half a megabyte of table cells: trivial for Liquid, hundreds of ms for the text part (no Liquid limit applies there).
const WIDE_TABLE = `<table><tr>${'<td>x</td>'.repeat(50_000)}</tr></table>`;

describe('RenderPool (real worker threads)', () => {
  const pool = new RenderPool(2, 0);
  afterAll(() => pool.close());

  it('renders on a thread what the batch renders here', async () => {
    const batch = {
      subject: 'Hi {{ name }}',
      html: '<p>{{ name }}</p>',
      variables: [{ name: 'Ann' }, { name: '<b>' }],
    };
    expect(await pool.render(batch)).toEqual(renderBatch(batch));
  });

  it('gives back template errors and budget errors as their classes', async () => {
    await expect(pool.render({ subject: 's', html: '{{ x | nope }}', variables: [{}] })).rejects.toBeInstanceOf(
      TemplateError,
    );
    await expect(
      pool.render({ subject: 's', html: 'xx', variables: [{}, {}], budget: { maxChars: 5 } }),
    ).rejects.toBeInstanceOf(RenderBudgetError);
  });

  it('renders the links of messages on a thread, as the batch does here', async () => {
    const batch = {
      subject: '',
      html: '<a href="https://x.test/?u={{ email }}">u</a>{{ q | url_decode }}',
      variables: [{ email: 'a@x.test', q: 'a' }, { q: '%E0%A4%A' }],
    };
    expect(await pool.renderLinks(batch)).toEqual([['https://x.test/?u=a@x.test'], null]);
  });

  it('renders plain fields on a thread too, within the same kind of budget', async () => {
    expect(
      await pool.renderFields({
        fields: [
          ['url', '/{{ id }}'],
          ['body', '{{ name }}'],
        ],
        variables: { id: 7, name: '<b>' },
      }),
    ).toEqual(['/7', '<b>']);
    const error = await pool
      .renderFields({ fields: [['body', ENDLESS]], variables: {}, budget: { timeMs: 50 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderBudgetError);
  });

  it('terminates a thread still busy past its budget, and the next batch gets a fresh one', async () => {
    const error = await pool
      .render({ subject: 's', html: WIDE_TABLE, variables: [{}], budget: { timeMs: 20 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderBudgetError);
    expect((error as RenderBudgetError).reason).toBe('time');
    expect(await pool.render({ subject: 'after', html: 'ok', variables: [{}] })).toEqual([
      { subject: 'after', html: 'ok', text: 'ok' },
    ]);
  });

  it('a heavy batch holds one thread: a light one started after it finishes first', async () => {
    const order: string[] = [];
    // Many messages of about a millisecond each (seconds in all): far under a field's own limit even on a loaded
    // machine, so the heavy batch runs to its end rather than stopping at a slow field.
    const heavy = pool
      .render({
        subject: MEDIUM,
        html: MEDIUM,
        variables: Array.from({ length: 1_500 }, () => ({})),
        budget: { timeMs: 120_000 },
      })
      .finally(() => order.push('heavy'));
    const light = pool.render({ subject: 'light', html: 'x', variables: [{}] }).finally(() => order.push('light'));
    const [messages] = await Promise.all([heavy, light]);
    expect(messages).toHaveLength(1_500);
    expect(order).toEqual(['light', 'heavy']);
  });

  it('starts a thread for a batch, lets it go once idle, and starts another for the next batch', async () => {
    const idle = new RenderPool(1, undefined, 100);
    expect(idle.threadCount).toBe(0);
    expect(await idle.render({ subject: 'a', html: 'b', variables: [{}] })).toEqual([
      { subject: 'a', html: 'b', text: 'b' },
    ]);
    expect(idle.threadCount).toBe(1);
    await until(async () => idle.threadCount === 0, 'the idle thread exits');
    expect(await idle.render({ subject: 'c', html: 'd', variables: [{}] })).toEqual([
      { subject: 'c', html: 'd', text: 'd' },
    ]);
    await idle.close();
  });

  it('refuses batches once closed', async () => {
    const closing = new RenderPool(1);
    await closing.render({ subject: 'a', html: 'b', variables: [{}] });
    await closing.close();
    await expect(closing.render({ subject: 'a', html: 'b', variables: [{}] })).rejects.toThrow(/closed/);
  });
});
