import { describe, expect, it } from 'vitest';
import { linksIn } from './links.ts';
import {
  answerRenderTask,
  FieldTemplateError,
  renderBatch,
  RenderBudgetError,
  renderFieldBatch,
  renderLinksBatch,
  resultOfReply,
  type RenderBatch,
} from './render-batch.ts';
import { renderTemplate, TemplateError } from './render.ts';

// About 200k loop iterations a field: far under a field's own limit, far over a 200 ms budget for 50 messages.
const LOOPS = '{% for a in (1..60) %}{% for b in (1..60) %}{% for c in (1..60) %}{% endfor %}{% endfor %}{% endfor %}';
// A billion loop iterations: past any budget (the range made once, so only time, not the memory limit, stops it).
const ENDLESS =
  '{% assign r = (1..1000) %}{% for a in r %}{% for b in r %}{% for c in r %}{% endfor %}{% endfor %}{% endfor %}';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('renderBatch', () => {
  it('renders one message per set of variables, in order, exactly as renderTemplate does', () => {
    const batch = {
      subject: 'Hi {{ name }}',
      html: '<p>{{ name }} <a href="{{ unsubscribeUrl }}">x</a></p>',
      variables: [
        { name: 'Ann', unsubscribeUrl: 'https://u/1' },
        { name: '<b>', unsubscribeUrl: 'https://u/2' },
      ],
    };
    const messages = renderBatch(batch);
    expect(messages).toEqual(
      batch.variables.map((variables) => renderTemplate({ subject: batch.subject, html: batch.html, variables })),
    );
    expect(messages.map((m) => m.subject)).toEqual(['Hi Ann', 'Hi <b>']);
  });

  it('stops a batch whose renders together take longer than its time budget', () => {
    const error = thrown(() =>
      renderBatch({
        subject: LOOPS,
        html: LOOPS,
        variables: Array.from({ length: 50 }, () => ({})),
        budget: { timeMs: 200 },
      }),
    );
    expect(error).toBeInstanceOf(RenderBudgetError);
    expect((error as RenderBudgetError).reason).toBe('time');
  });

  it('stops a batch whose rendered output together is larger than its size budget', () => {
    const error = thrown(() =>
      renderBatch({
        subject: 's',
        html: '{{ x }}',
        variables: Array.from({ length: 5 }, () => ({ x: 'y'.repeat(300) })),
        budget: { maxChars: 1_000 },
      }),
    );
    expect(error).toBeInstanceOf(RenderBudgetError);
    expect((error as RenderBudgetError).reason).toBe('size');
    expect(
      renderBatch({ subject: 's', html: '{{ x }}', variables: [{ x: 'y'.repeat(300) }], budget: { maxChars: 1_000 } }),
    ).toHaveLength(1);
  });

  it('a template error keeps its field, kind and position', () => {
    const error = thrown(() => renderBatch({ subject: 's', html: '<p>\n  {{ x | nope }}</p>', variables: [{}] }));
    expect(error).toMatchObject({ name: 'TemplateError', field: 'html', line: 2, column: 3 });
  });
});

describe('renderLinksBatch', () => {
  it('answers the links of each message renderBatch makes, in order; null for one whose body does not render', () => {
    const batch = {
      subject: 'ignored {{ x | nope }}',
      html:
        '{% if vip %}<a href="https://x.test/vip">v</a>{% endif %}<a ' +
        'href="https://x.test/?u={{ email }}">u</a><a href="{{ bad }}">b</a>{{ q | ' +
        'url_decode }}',
      // The last one's data makes the render fail (a malformed escape).
      variables: [
        { vip: true, email: 'a&b@x.test', bad: 'javascript:alert(1)', q: 'a' },
        { email: 'c@x.test', q: 'b' },
        { email: 'e@x.test', q: '%E0%A4%A' },
      ],
    };
    const links = renderLinksBatch(batch);
    expect(links.slice(0, 2)).toEqual(
      renderBatch({ ...batch, subject: '', variables: batch.variables.slice(0, 2) }).map((m) => linksIn(m.html)),
    );
    expect(links).toEqual([
      ['https://x.test/vip', 'https://x.test/?u=a&b@x.test', '#'],
      ['https://x.test/?u=c@x.test', ''],
      null,
    ]);
  });

  it('stops at a limit like renderBatch, and carries its links across the thread boundary', () => {
    const error = thrown(() =>
      renderLinksBatch({
        subject: '',
        html: LOOPS,
        variables: Array.from({ length: 50 }, () => ({})),
        budget: { timeMs: 200 },
      }),
    );
    expect(error).toBeInstanceOf(RenderBudgetError);
    const batch = { subject: '', html: '<a href="https://x.test/{{ n }}">n</a>', variables: [{ n: 1 }, { n: 2 }] };
    expect(resultOfReply(structuredClone(answerRenderTask({ kind: 'links', batch })))).toEqual([
      ['https://x.test/1'],
      ['https://x.test/2'],
    ]);
  });
});

describe('renderFieldBatch', () => {
  it('renders each field as plain text (no escaping, no text part), in order', () => {
    expect(
      renderFieldBatch({
        fields: [
          ['url', 'https://x.test/{{ id }}'],
          ['headers.X-Name', '{{ name }}'],
        ],
        variables: { id: 'a b', name: '<Ann>' },
      }),
    ).toEqual(['https://x.test/a b', '<Ann>']);
  });

  it('lets one field take the whole budget, then stops with the budget error', () => {
    const error = thrown(() =>
      renderFieldBatch({ fields: [['body', ENDLESS]], variables: {}, budget: { timeMs: 100 } }),
    );
    expect(error).toBeInstanceOf(RenderBudgetError);
    expect((error as RenderBudgetError).reason).toBe('time');
  });

  it('names the field that does not render, and counts the output of all fields against the size budget', () => {
    const error = thrown(() =>
      renderFieldBatch({
        fields: [
          ['url', 'ok'],
          ['headers.X-A', '\n {{ x | nope }}'],
        ],
        variables: {},
      }),
    );
    expect(error).toBeInstanceOf(FieldTemplateError);
    expect(error).toMatchObject({
      at: 'headers.X-A',
      line: 2,
      column: 2,
      message: expect.stringMatching(/^headers\.X-A: .*nope.* \(line 2, column 2\)$/),
    });
    const size = thrown(() =>
      renderFieldBatch({
        fields: [
          ['a', '{{ x }}'],
          ['b', '{{ x }}'],
        ],
        variables: { x: 'y'.repeat(600) },
        budget: { maxChars: 1_000 },
      }),
    );
    expect(size).toMatchObject({ name: 'RenderBudgetError', reason: 'size' });
  });
});

const answerRenderBatch = (batch: RenderBatch) => answerRenderTask({ kind: 'messages', batch });

describe('replies across the thread boundary', () => {
  it('carry messages, template errors and budget errors back as the same results and classes', () => {
    const ok = { subject: 'a', html: 'b', variables: [{}] };
    expect(resultOfReply(structuredClone(answerRenderBatch(ok)))).toEqual(renderBatch(ok));

    const template = thrown(() =>
      resultOfReply(
        structuredClone(answerRenderBatch({ subject: 's', html: '<p>\n  {{ x | nope }}</p>', variables: [{}] })),
      ),
    );
    const direct = thrown(() =>
      renderBatch({ subject: 's', html: '<p>\n  {{ x | nope }}</p>', variables: [{}] }),
    ) as TemplateError;
    expect(template).toBeInstanceOf(TemplateError);
    expect(template).toMatchObject({
      message: direct.message,
      detail: direct.detail,
      kind: direct.kind,
      field: 'html',
      line: 2,
      column: 3,
    });

    const budget = thrown(() =>
      resultOfReply(
        structuredClone(answerRenderBatch({ subject: 's', html: 'xx', variables: [{}, {}], budget: { maxChars: 5 } })),
      ),
    );
    expect(budget).toBeInstanceOf(RenderBudgetError);
    expect(budget).toMatchObject({ reason: 'size', budget: { maxChars: 5 } });

    const fields = {
      fields: [
        ['url', '{{ a }}'],
        ['body', '{{ b | nope }}'],
      ] as Array<[string, string]>,
      variables: { a: 1 },
    };
    expect(
      resultOfReply(
        structuredClone(answerRenderTask({ kind: 'fields', batch: { ...fields, fields: fields.fields.slice(0, 1) } })),
      ),
    ).toEqual(['1']);
    const field = thrown(() => resultOfReply(structuredClone(answerRenderTask({ kind: 'fields', batch: fields }))));
    expect(field).toBeInstanceOf(FieldTemplateError);
    expect(field).toMatchObject({ at: 'body', message: (thrown(() => renderFieldBatch(fields)) as Error).message });
  });
});
