// Modules own their tables: only the delivery module writes emails and their side tables, only the events module
// writes events. Read from the source: drizzle's insert/update/delete on those tables, and raw SQL that writes them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths.ts';

const root = repoRoot;

const OWNERS: { owner: string; tables: string[]; schemaNames: string[] }[] = [
  { owner: 'src/modules/delivery/', tables: ['emails', 'email_contents', 'email_attachments', 'email_mime', 'send_pacing'], schemaNames: ['emails', 'emailContents', 'emailAttachments', 'emailMime', 'sendPacing'] },
  { owner: 'src/modules/events/', tables: ['events'], schemaNames: ['events'] },
  { owner: 'src/modules/audit/', tables: ['audit_log'], schemaNames: ['auditLog'] },
  {
    owner: 'src/modules/accounts/', tables: ['users', 'user_sessions', 'account_tokens', 'recovery_codes', 'sign_in_failures', 'memberships'],
    schemaNames: ['users', 'userSessions', 'accountTokens', 'recoveryCodes', 'signInFailures', 'memberships'],
  },
  { owner: 'src/modules/team/', tables: ['invites'], schemaNames: ['invites'] },
  { owner: 'src/modules/inbound/', tables: ['inbound_messages', 'inbound_content', 'inbound_attachments', 'inbound_usage'], schemaNames: ['inboundMessages', 'inboundContent', 'inboundAttachments', 'inboundUsage'] },
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
    const planted = [
      'await tx.update(emails).set({ status: "CANCELLED" })',
      'db.insert(events).values(rows)',
      'sql`UPDATE emails e SET status = 1`',
      'sql`insert into "events" (id) values (1)`',
      'sql`DELETE FROM email_attachments WHERE x`',
    ].join('\n');
    expect(writesIn(planted, OWNERS[0]!.tables.concat(OWNERS[1]!.tables), OWNERS[0]!.schemaNames.concat(OWNERS[1]!.schemaNames))).toHaveLength(5);
    expect(writesIn('db.select().from(emails); sql`SELECT * FROM emails JOIN events ON true`', ['emails', 'events'], ['emails', 'events'])).toEqual([]);
  });

  for (const { owner, tables, schemaNames } of OWNERS) {
    it(`lets only ${owner} write ${tables.join(', ')}`, () => {
      const outside = sourceFiles(path.join(root, 'src'))
        .filter((file) => !path.relative(root, file).startsWith(owner))
        .flatMap((file) => writesIn(fs.readFileSync(file, 'utf8'), tables, schemaNames).map((write) => `${path.relative(root, file)}: ${write}`));
      expect(outside).toEqual([]);
    });
  }
});
