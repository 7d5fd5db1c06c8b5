import { describe, expect, it } from 'vitest';
import type { Email, EventItem } from '../../shared/api/types.ts';
import { mergeHistory } from './contact-history.ts';

const email = (id: string, createdAt: string) => ({ id, createdAt, subject: id }) as unknown as Email;
const event = (id: string, name: string, createdAt: string, data: Record<string, unknown> = {}) =>
  ({ id, name, createdAt, data }) as unknown as EventItem;

describe('mergeHistory', () => {
  it('lists each send once, keeps its opens and clicks linked to it, and every other event', () => {
    const sent = email('m1', '2026-11-01T10:00:00.000Z');
    const entries = mergeHistory(
      [
        event('e1', 'email.queued', '2026-11-01T10:00:00.001Z', { emailId: 'm1' }),
        event('e2', 'email.sent', '2026-11-01T10:00:01.000Z', { emailId: 'm1' }),
        event('e3', 'email.clicked', '2026-11-01T11:00:00.000Z', { emailId: 'm1', url: 'https://x.test' }),
        event('e4', 'signed_up', '2026-11-01T09:00:00.000Z'),
        // An email not in the list (past its first page) keeps its events.
        event('e5', 'email.sent', '2026-10-01T10:00:00.000Z', { emailId: 'old' }),
      ],
      [sent],
    );
    expect(entries.map((e) => e.key)).toEqual(['ee3', 'mm1', 'ee4', 'ee5']);
    const click = entries[0]!;
    expect(click.kind === 'event' && click.email).toBe(sent);
  });
});
