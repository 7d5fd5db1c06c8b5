import { useProjectQuery } from '../../../shared/api/queries.ts';
import type { Email, EventItem } from '../../../shared/api/types.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { Link } from '../../../shared/router.tsx';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { breakable, LongValue } from '../../../shared/ui/long-value.tsx';
import { listContactHistory } from '../api.ts';

type Entry = { at: string; key: string } & ({ kind: 'event'; event: EventItem } | { kind: 'email'; email: Email });

function summary(data: Record<string, unknown>): string {
  const text = Object.entries(data)
    .filter(([k]) => k !== 'emailId')
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** The contact's events and emails, newest first, in one list. */
export function ContactTimeline({ contactId }: { contactId: string }) {
  const state = useProjectQuery(['contacts', contactId, 'timeline'], async (api) => {
    const { events, emails } = await listContactHistory(api, contactId);
    const entries: Entry[] = [
      ...events.map((event): Entry => ({ kind: 'event', event, at: event.createdAt, key: `e${event.id}` })),
      ...emails.map((email): Entry => ({ kind: 'email', email, at: email.createdAt, key: `m${email.id}` })),
    ];
    return entries.sort((a, b) => b.at.localeCompare(a.at));
  });
  return (
    <section className="panel" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <AsyncView state={state} isEmpty={(e) => e.length === 0} empty={<p>Nothing has happened to this contact yet.</p>}>
        {(entries) => (
          <ol className="timeline">
            {entries.map((entry) => (
              <li key={entry.key} className={`timeline-${entry.kind}`}>
                <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                {entry.kind === 'event' ? (
                  <span>
                    <LongValue className="event-name" text={entry.event.name} /> {breakable(summary(entry.event.data))}
                  </span>
                ) : (
                  <span>
                    Email <Link to={`/emails/${encodeURIComponent(entry.email.id)}`}>{entry.email.subject}</Link>{' '}
                    <StatusBadge status={entry.email.status} />
                  </span>
                )}
              </li>
            ))}
          </ol>
        )}
      </AsyncView>
    </section>
  );
}
