// Modules own their tables: only the emails module writes emails and their side tables (and there only its repo, which
// also holds every read of them, every status through a named transition), only the events module writes events. Read
// from the source: drizzle's insert/update/delete on those tables, and raw SQL that writes them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.ts';

const root = repoRoot;

const OWNERS: { owner: string; tables: string[]; schemaNames: string[] }[] = [
  {
    owner: 'src/modules/emails/',
    tables: ['emails', 'email_contents', 'email_attachments', 'email_mime', 'link_clicks'],
    schemaNames: ['emails', 'emailContents', 'emailAttachments', 'emailMime', 'linkClicks'],
  },
  {
    owner: 'src/modules/sending/',
    tables: ['send_pacing', 'send_throttles', 'send_counts', 'warmup_days'],
    schemaNames: ['sendPacing', 'sendThrottles', 'sendCounts', 'warmupDays'],
  },
  {
    owner: 'src/modules/transports/',
    tables: ['transports', 'transport_health', 'routing', 'transport_pacing'],
    schemaNames: ['transports', 'transportHealth', 'routing', 'transportPacing'],
  },
  { owner: 'src/modules/events/', tables: ['events'], schemaNames: ['events'] },
  {
    owner: 'src/modules/contacts/',
    tables: ['consent_ledger', 'contact_properties'],
    schemaNames: ['consentLedger', 'contactProperties'],
  },
  { owner: 'src/modules/audit/', tables: ['audit_log'], schemaNames: ['auditLog'] },
  { owner: 'src/modules/logs/', tables: ['request_logs'], schemaNames: ['requestLogs'] },
  {
    owner: 'src/modules/accounts/',
    tables: ['users', 'user_sessions', 'account_tokens', 'recovery_codes', 'sign_in_failures', 'memberships'],
    schemaNames: ['users', 'userSessions', 'accountTokens', 'recoveryCodes', 'signInFailures', 'memberships'],
  },
  { owner: 'src/modules/team/', tables: ['invites'], schemaNames: ['invites'] },
  {
    owner: 'src/modules/inbound/',
    tables: ['inbound_messages', 'inbound_content', 'inbound_attachments', 'inbound_usage'],
    schemaNames: ['inboundMessages', 'inboundContent', 'inboundAttachments', 'inboundUsage'],
  },
];

/** Every place in `text` that writes one of the tables (drizzle or SQL). */
function writesIn(text: string, tables: string[], schemaNames: string[]): string[] {
  const drizzle = new RegExp(`\\.(insert|update|delete)\\(\\s*(${schemaNames.join('|')})\\s*\\)`, 'g');
  const raw = new RegExp(`\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+"?(${tables.join('|')})"?(\\s|\\(|$)`, 'gi');
  return [...text.matchAll(drizzle), ...text.matchAll(raw)].map((m) => m[0].trim());
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

describe('table owners', () => {
  it('finds drizzle and SQL writes (the check can fail)', () => {
    const EVENTS = OWNERS.find((o) => o.owner === 'src/modules/events/')!;
    const planted = [
      'await tx.update(emails).set({ status: "CANCELLED" })',
      'db.insert(events).values(rows)',
      'sql`UPDATE emails e SET status = 1`',
      'sql`insert into "events" (id) values (1)`',
      'sql`DELETE FROM email_attachments WHERE x`',
    ].join('\n');
    expect(
      writesIn(planted, OWNERS[0]!.tables.concat(EVENTS.tables), OWNERS[0]!.schemaNames.concat(EVENTS.schemaNames)),
    ).toHaveLength(5);
    expect(
      writesIn(
        'db.select().from(emails); sql`SELECT * FROM emails JOIN events ON true`',
        ['emails', 'events'],
        ['emails', 'events'],
      ),
    ).toEqual([]);
  });

  for (const { owner, tables, schemaNames } of OWNERS) {
    it(`lets only ${owner} write ${tables.join(', ')}`, () => {
      const outside = sourceFiles(path.join(root, 'src'))
        .filter((file) => !path.relative(root, file).startsWith(owner))
        .flatMap((file) =>
          writesIn(fs.readFileSync(file, 'utf8'), tables, schemaNames).map(
            (write) => `${path.relative(root, file)}: ${write}`,
          ),
        );
      expect(outside).toEqual([]);
    });
  }
});

const STATUSES = 'SCHEDULED|QUEUED|SENDING|SENT|DELIVERED|DEFERRED|BOUNCED|COMPLAINED|FAILED|SUPPRESSED|CANCELLED';

/**
 * The status writes of `text` that name no transition: in every UPDATE of emails (SQL up to its WHERE, drizzle's
 * set object), a `status` assignment must take `target(<transition>, …)`, and no status literal may be set.
 */
function unnamedStatusWrites(text: string): string[] {
  const sqlSets = [...text.matchAll(/UPDATE\s+emails\b[\s\S]*?\bWHERE\b/gi)].map((m) => m[0]);
  const drizzleSets = [...text.matchAll(/\.update\(emails\)\s*\.set\(\{[\s\S]*?\}\)/g)].map((m) => m[0]);
  const bad: string[] = [];
  for (const set of sqlSets) {
    for (const m of set.matchAll(/(?<![\w.])status\s*=\s*([^,\n]+)/g)) {
      const value = m[1]!.trim();
      if (!value.startsWith('${target(') && !/^CASE\b/.test(value)) bad.push(m[0]);
    }
    const literal = new RegExp(`THEN\\s+'(${STATUSES})'|ELSE\\s+'(${STATUSES})'`);
    if (literal.test(set)) bad.push(set.match(literal)![0]);
  }
  for (const set of drizzleSets) {
    for (const m of set.matchAll(/(?<![\w.])status:\s*([^,}\n]+)/g))
      if (!m[1]!.trim().startsWith('target(')) bad.push(m[0]);
  }
  return bad;
}

describe('email status writes', () => {
  it('finds a status set without a transition (the check can fail)', () => {
    const planted = [
      "sql`UPDATE emails e SET status = 'SENT' WHERE x`",
      "sql`UPDATE emails SET status = CASE WHEN a THEN 'DEFERRED' ELSE ${target('giveBack', 'QUEUED')} END WHERE x`",
      "db.update(emails).set({ status: 'CANCELLED', statusReason: null })",
    ].join('\n');
    expect(unnamedStatusWrites(planted)).toHaveLength(3);
    const named = [
      "sql`UPDATE emails SET status = ${target('send', 'SENT')}, sent_at = now() WHERE status = 'SENDING'`",
      "db.update(emails).set({ status: target('cancel', 'CANCELLED') })",
    ].join('\n');
    expect(unnamedStatusWrites(named)).toEqual([]);
  });

  it('names a transition in every status change of an email', () => {
    const dir = path.join(root, 'src/modules/emails');
    const bad = sourceFiles(dir).flatMap((file) =>
      unnamedStatusWrites(fs.readFileSync(file, 'utf8')).map((w) => `${path.relative(root, file)}: ${w}`),
    );
    expect(bad).toEqual([]);
  });
});

const EMAIL_TABLES = OWNERS[0]!;
/** The one file that queries the emails tables; everything else calls its named functions. */
const EMAILS_REPO = 'src/modules/emails/emails.repo.ts';

/**
 * Every read or write of the emails tables in `text`: drizzle's from, joins, insert, update and delete on their schema
 * objects, and SQL that names one after FROM, JOIN, UPDATE, INSERT INTO or DELETE FROM (as a name or a `${table}`).
 */
function emailQueriesIn(text: string): string[] {
  const names = EMAIL_TABLES.schemaNames.join('|');
  const calls = 'from|innerJoin|leftJoin|rightJoin|fullJoin|insert|update|delete';
  const drizzle = new RegExp(`\\.(${calls})\\(\\s*(${names})\\s*[,)]`, 'g');
  const table = `"?(${EMAIL_TABLES.tables.join('|')})"?(\\s|\\(|\\)|\`|$)|\\$\\{(${names})\\}`;
  const raw = new RegExp(`\\b(FROM|JOIN|UPDATE|INSERT\\s+INTO|DELETE\\s+FROM)\\s+(${table})`, 'gim');
  return [...text.matchAll(drizzle), ...text.matchAll(raw)].map((m) => m[0].trim());
}

describe('email queries', () => {
  it('finds drizzle and SQL reads and writes of the emails tables (the check can fail)', () => {
    const planted = [
      'db.select().from(emails).where(x)',
      'db.select().from(users).innerJoin(emailContents, eq(a, b))',
      'await tx.update(emails).set({ opens: 1 })',
      'db.insert(linkClicks).values(row)',
      'db.delete(emailMime).where(x)',
      'sql`SELECT count(*) FROM emails m WHERE x`',
      'sql`SELECT 1 FROM contacts c JOIN email_attachments a ON true`',
      'sql`NOT EXISTS (SELECT 1 FROM ${emails} WHERE x)`',
      "sql`UPDATE emails SET status = 'x'`",
      'sql`insert into "link_clicks" (id) values (1)`',
      'sql`DELETE FROM email_mime WHERE x`',
    ].join('\n');
    expect(emailQueriesIn(planted)).toHaveLength(11);
    const others = 'db.select().from(contacts); sql`SELECT * FROM events e JOIN emails_sent s ON true`; emailsOf(x)';
    expect(emailQueriesIn(others)).toEqual([]);
  });

  it(`keeps every read and write of the emails tables in ${EMAILS_REPO}`, () => {
    const outside = sourceFiles(path.join(root, 'src'))
      .map((file) => path.relative(root, file))
      .filter((file) => file !== EMAILS_REPO)
      .flatMap((file) => emailQueriesIn(fs.readFileSync(path.join(root, file), 'utf8')).map((q) => `${file}: ${q}`));
    expect(outside).toEqual([]);
  });
});
