// The database's own behaviour, as a page: every trigger left in the schema (and the function it runs), read from
// the catalog of a freshly migrated database. `npm run gen:triggers` writes docs/database-triggers.md, and
// test/system/db-triggers.test.ts fails when the committed page is not what the migrations give.
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Executor } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';

export const TRIGGERS_PAGE = fileURLToPath(new URL('../docs/database-triggers.md', import.meta.url));
export const REGENERATE_TRIGGERS = 'npm run gen:triggers';

/** Why each trigger is a trigger, not code: every trigger must have a line here (the page refuses one without). */
const REASONS: Record<string, string> = {
  events_start_workflows:
    'Events are inserted by many paths in one statement each — `recordEvents`, and SQL that inserts the events of a ' +
    'whole batch inside a larger statement (sent emails, imports) — and a statement-level trigger with a transition ' +
    'table starts and wakes the workflows of exactly the rows inserted, in the same statement and transaction, ' +
    'whatever path inserted them. Measured (`npm run bench -- event-triggers`, PostgreSQL 15, 2 cores): one event ' +
    'per insert, as /v1/track makes, 2.5 ms with the trigger against 3.8 ms with the same work as a second ' +
    'statement from code; 500 events per insert 20–23 ms against 25–27 ms.',
  domains_notify_insert_delete:
    'Every process caches the sender domains it signs with; any committed change to a domain must reach every ' +
    'cache, whichever statement made it.',
  domains_notify_update: 'As above, for updates.',
};

interface TriggerRow {
  name: string;
  table: string;
  definition: string;
  function_name: string;
  function_source: string;
}

/** Prose broken into lines of at most 110 characters. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > 110) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** A SQL line broken at spaces outside quotes into lines of at most 110 characters (continuations indented). */
function wrapSql(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (rest.length > 110) {
    let cut = -1;
    let quoted = false;
    for (let i = 0; i < 110; i++) {
      if (rest[i] === "'") quoted = !quoted;
      else if (rest[i] === ' ' && !quoted && i > 20) cut = i;
    }
    if (cut < 0) break;
    out.push(rest.slice(0, cut));
    rest = `    ${rest.slice(cut + 1).trimStart()}`;
  }
  return [...out, rest].join('\n');
}

/** The markdown page of the triggers of the migrated database behind `db`. */
export async function triggersPage(db: Executor): Promise<string> {
  const rows = rowsOf<TriggerRow>(
    await db.execute(sql`
    SELECT t.tgname AS name, c.relname AS "table", pg_get_triggerdef(t.oid) AS definition,
      p.proname AS function_name, pg_get_functiondef(p.oid) AS function_source
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE NOT t.tgisinternal AND n.nspname = 'public'
    ORDER BY c.relname, t.tgname`),
  );
  const missing = rows.filter((r) => !REASONS[r.name]).map((r) => r.name);
  if (missing.length > 0)
    throw new Error(`no reason written for the trigger(s) ${missing.join(', ')} (build/db-triggers.ts)`);
  const sections = rows.map((r) =>
    [
      `## \`${r.name}\` on \`${r.table}\``,
      '',
      wrap(REASONS[r.name]!),
      '',
      '```sql',
      wrapSql(`${r.definition};`),
      '',
      r.function_source.trim().split('\n').map(wrapSql).join('\n'),
      '```',
    ].join('\n'),
  );
  return (
    [
      '# Database triggers',
      '',
      'What the database does by itself, beside the code: the triggers left in the schema and the functions they run,',
      `read from a freshly migrated database (\`${REGENERATE_TRIGGERS}\` writes this page; a test keeps it current).`,
      'To list them on your own database:',
      '',
      '```sql',
      'SELECT tgrelid::regclass AS table_name, tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2;',
      '```',
      '',
      'No trigger writes emails: held mail is released, and the sending workers are woken, by the code that makes the',
      'change (see development.md).',
      '',
      ...sections.flatMap((s) => [s, '']),
    ]
      .join('\n')
      .trimEnd() + '\n'
  );
}
