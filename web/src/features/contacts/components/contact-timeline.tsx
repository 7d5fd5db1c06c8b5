import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { Link } from '../../../shared/router.tsx';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { breakable, LongValue } from '../../../shared/ui/long-value.tsx';
import { listContactHistory } from '../api.ts';
import { mergeHistory } from '../contact-history.ts';

function summary(data: Record<string, unknown>): string {
  const text = Object.entries(data)
    .filter(([k]) => k !== 'emailId')
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** The contact's events and emails, newest first, in one list: each send once, its opens and clicks linked to it. */
export function ContactTimeline({ contactId }: { contactId: string }) {
  const state = useProjectQuery(['contacts', contactId, 'timeline'], async (api) => {
    const { events, emails } = await listContactHistory(api, contactId);
    return mergeHistory(events, emails);
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
                    <LongValue className="event-name" text={entry.event.name} />{' '}
                    {entry.email && (
                      <>
                        <Link to={`/emails/${encodeURIComponent(entry.email.id)}`}>{entry.email.subject}</Link>{' '}
                      </>
                    )}
                    {breakable(summary(entry.event.data))}
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
