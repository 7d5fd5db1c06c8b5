import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { getEmailTimeline } from '../api.ts';

type Entry = Awaited<ReturnType<typeof getEmailTimeline>>[number];
type Line = { from: 'C' | 'S'; line: string };

const WORDS: Record<string, string> = {
  accepted: 'Accepted',
  rendered: 'Rendered',
  queued: 'Queued',
  scheduled: 'Scheduled',
  attempt: 'Delivery attempt',
  deferred: 'Deferred',
  sent: 'Sent',
  delivered: 'Delivered',
  bounced: 'Bounced',
  complained: 'Complaint',
  failed: 'Failed',
  suppressed: 'Suppressed',
  cancelled: 'Cancelled',
  opened: 'Opened',
  clicked: 'Clicked',
  unsubscribed: 'Unsubscribed',
  webhook: 'Webhook',
};

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** One line saying what the entry's details mean, in words. */
function summary(entry: Entry): string {
  const d = entry.detail as Record<string, unknown>;
  const actor = (d.actor as { label?: string } | undefined)?.label;
  switch (entry.type) {
    case 'accepted':
      return [`via ${text(d.how)}`, actor ? `by ${actor}` : '', d.requestId ? `request ${text(d.requestId)}` : '']
        .filter(Boolean)
        .join(', ');
    case 'rendered':
      return `template ${text(d.templateId)}, version ${text(d.version)}${d.locale ? `, ${text(d.locale)}` : ''}`;
    case 'scheduled':
      return `for ${formatDateTime(text(d.scheduledAt))}`;
    case 'attempt':
      return `${text(d.transport)} (${text(d.transportType)}): ${text(d.outcome)} in ${text(d.durationMs)} ms${
        d.response ? ` — ${text(d.response)}` : ''
      }`;
    case 'deferred':
      return [text(d.error ?? d.diagnostic), d.retryAt ? `retry at ${formatDateTime(text(d.retryAt))}` : '']
        .filter(Boolean)
        .join('; ');
    case 'opened':
    case 'clicked':
      return [
        d.human ? 'by a person' : `by a machine (${text(d.machineReason).toLowerCase().replaceAll('_', ' ')})`,
        text(d.url),
      ]
        .filter(Boolean)
        .join(': ');
    case 'webhook':
      return `${text(d.event)} to ${text(d.url)}: ${text(d.status).toLowerCase()}${
        d.responseStatus ? ` (${text(d.responseStatus)})` : ''
      }, ${text(d.attempts)} attempt${d.attempts === 1 ? '' : 's'}`;
    case 'cancelled':
      return actor ? `by ${actor}` : text(d.reason);
    default:
      return [d.source, d.code, d.reason, d.error, d.diagnostic, d.response, d.feedbackType, d.address]
        .map(text)
        .filter(Boolean)
        .join(' — ');
  }
}

/** The SMTP conversation of an attempt: Herald's commands and the server's replies (never the message). */
function Conversation({ lines }: { lines: Line[] }) {
  return (
    <details className="conversation">
      <summary>SMTP conversation ({lines.length} lines)</summary>
      <pre className="source" tabIndex={0} aria-label="SMTP conversation">
        {lines.map((l) => `${l.from === 'C' ? 'C:' : 'S:'} ${l.line}`).join('\n')}
      </pre>
    </details>
  );
}

/** The email's timeline: every step recorded as it happened, with each attempt's SMTP conversation. */
export function EmailTimeline({ id }: { id: string }) {
  const state = useProjectQuery(['emails', id, 'timeline'], (api) => getEmailTimeline(api, id));
  return (
    <section className="panel" aria-labelledby="email-timeline-title">
      <h2 id="email-timeline-title">Timeline</h2>
      <AsyncView state={state} isEmpty={(e) => e.length === 0} empty={<p>Nothing recorded for this email.</p>}>
        {(entries) => (
          <ol className="timeline" aria-label="Timeline">
            {entries.map((entry, i) => {
              const lines = (entry.detail as { conversation?: Line[] }).conversation;
              return (
                <li key={`${entry.at}-${i}`} data-type={entry.type}>
                  <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>{' '}
                  <strong className="event-name">{WORDS[entry.type] ?? entry.type}</strong>{' '}
                  <span className="wrap">{summary(entry)}</span>
                  {lines && lines.length > 0 && <Conversation lines={lines} />}
                </li>
              );
            })}
          </ol>
        )}
      </AsyncView>
    </section>
  );
}
