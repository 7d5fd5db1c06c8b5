import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { compileFilter, FilterCompileError } from './filter.compile.ts';
import type { Filter } from './filter.types.ts';

const dialect = new PgDialect();
const render = (filter: Filter, segments: Record<string, Filter> = {}) =>
  dialect.sqlToQuery(
    compileFilter(filter, {
      projectId: '01890000-0000-7000-8000-0000000000ff',
      segments: new Map(Object.entries(segments)),
    }),
  );

describe('compileFilter', () => {
  it('binds every value and data key as a parameter, never in the SQL text', () => {
    const evil = "x'); DROP TABLE contacts; --";
    const query = render({
      all: [
        { field: `data.${evil}`, operator: 'equals', value: evil },
        { field: 'email', operator: 'in', value: [evil] },
        { event: evil, operator: 'performed', within: '7d' },
        { field: `data.${evil}`, operator: 'greaterThan', value: 3 },
      ],
    });
    expect(query.sql).not.toContain('DROP');
    expect(query.params).toContain(evil);
    expect(query.params).toContain(JSON.stringify({ [evil]: evil }));
  });

  it('compiles one predicate: EXISTS sub-queries, counts grouped once', () => {
    const query = render({
      any: [
        { event: 'buy', operator: 'performed', count: { gte: 2, lte: 5 } },
        { activity: 'clicked', operator: 'notPerformed', within: '1d' },
      ],
    });
    // Whitespace means nothing to SQL: the statement is compared with each run of it as one space.
    const text = query.sql.replace(/\s+/g, ' ');
    expect(text).toMatch(
      new RegExp(
        String.raw`EXISTS \(SELECT 1 FROM \(SELECT e.contact_id FROM events e WHERE .* GROUP BY e.contact_id ` +
          String.raw`HAVING count\(\*\) BETWEEN \$\d+ AND \$\d+\) AS counted ` +
          String.raw`WHERE counted.contact_id = "contacts"."id"\)`,
      ),
    );
    expect(text).toContain('NOT EXISTS (SELECT 1 FROM emails m WHERE m.project_id = $');
    expect(text).toContain('m.contact_id = "contacts"."id" AND m.clicked_at IS NOT NULL');
  });

  it('expands segment references in place, and refuses a cycle or a missing segment', () => {
    const a = '01890000-0000-7000-8000-00000000000a';
    const b = '01890000-0000-7000-8000-00000000000b';
    const query = render(
      { segment: a, operator: 'notMember' },
      { [a]: { field: 'data.plan', operator: 'equals', value: 'pro' } },
    );
    expect(query.sql).toMatch(/^NOT \(\(?"contacts"."data" @> \$1::jsonb\)?\)$/);
    expect(() =>
      render(
        { segment: a, operator: 'member' },
        { [a]: { segment: b, operator: 'member' }, [b]: { any: [{ segment: a, operator: 'member' }] } },
      ),
    ).toThrow(FilterCompileError);
    expect(() => render({ segment: b, operator: 'member' })).toThrow(/does not exist/);
  });

  it('refuses a filter that grows too large once its segments are expanded', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `01890000-0000-7000-8000-0000000000${String(i).padStart(2, '0')}`);
    const segments = Object.fromEntries(
      ids.map((id, i) => [
        id,
        i === ids.length - 1
          ? { field: 'email', operator: 'equals', value: 'a' }
          : {
              any: [
                { segment: ids[i + 1]!, operator: 'member' },
                { segment: ids[i + 1]!, operator: 'notMember' },
              ],
            },
      ]),
    ) as Record<string, Filter>;
    expect(() => render({ segment: ids[0]!, operator: 'member' }, segments)).toThrow(/more than 1000/);
  });
});
