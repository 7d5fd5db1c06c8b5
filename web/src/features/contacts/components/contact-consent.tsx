import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { Link } from '../../../shared/router.tsx';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { getContactConsent, listAllTopics } from '../api.ts';

const ACTIONS: Record<string, string> = {
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
  confirmed: 'Confirmed the signup',
  topic_in: 'Chose in to',
  topic_out: 'Chose out of',
  snoozed: 'Paused mail',
  unsnoozed: 'Resumed mail',
};

const SOURCES: Record<string, string> = {
  api: 'the API',
  dashboard: 'the dashboard',
  form: 'a signup form',
  import: 'an import',
  bulk: 'a bulk action',
  preference_centre: 'the preference centre',
  unsubscribe_link: 'the unsubscribe link',
  one_click: "the mail client's unsubscribe button",
  complaint: 'a spam complaint',
  sunset: 'sunsetting (no engagement)',
  workflow: 'a workflow',
};

/** The contact's consent ledger: every subscription change, topic choice and confirmation, where it came from. */
export function ContactConsent({ contactId }: { contactId: string }) {
  const state = useProjectQuery(['contacts', contactId, 'consent'], async (api) => {
    const [entries, topics] = await Promise.all([getContactConsent(api, contactId), listAllTopics(api)]);
    return { entries: [...entries].reverse(), topicNames: new Map(topics.map((t) => [t.id, t.name])) };
  });
  return (
    <section className="panel" aria-labelledby="contact-consent-title">
      <h2 id="contact-consent-title">Consent</h2>
      <AsyncView
        state={state}
        isEmpty={(s) => s.entries.length === 0}
        empty={<p className="muted">No subscription change recorded: this contact never subscribed.</p>}
      >
        {({ entries, topicNames }) => (
          <ol className="timeline" data-testid="consent-ledger">
            {entries.map((e, i) => (
              <li key={`${e.at}-${i}`}>
                <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                <span>
                  <strong>{ACTIONS[e.action] ?? e.action}</strong>
                  {e.topicId ? ` ${topicNames.get(e.topicId) ?? 'a deleted topic'}` : ''} through{' '}
                  {SOURCES[e.source.type] ?? e.source.type}
                  {e.source.emailId ? (
                    <>
                      {' '}
                      of <Link to={`/emails/${encodeURIComponent(e.source.emailId)}`}>an email</Link>
                    </>
                  ) : null}
                  {e.ip ? <span className="muted"> · {e.ip}</span> : null}
                  {e.userAgent ? (
                    <span className="muted truncate" title={e.userAgent}>
                      {' '}
                      · {e.userAgent}
                    </span>
                  ) : null}
                  {e.text ? <q className="consent-text">{e.text}</q> : null}
                </span>
              </li>
            ))}
          </ol>
        )}
      </AsyncView>
    </section>
  );
}
