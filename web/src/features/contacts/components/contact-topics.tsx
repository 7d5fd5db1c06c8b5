import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { ContactTopic, Topic } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { Link } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { listAllTopics, listContactTopics, setContactTopics } from '../api.ts';

const defaultOf = (topic: Topic | undefined) =>
  topic?.defaultSubscription === 'OPT_OUT' ? 'default: in (opt-out topic)' : 'default: out (opt-in topic)';

function TopicChoices({ contactId, choices, topics }: { contactId: string; choices: ContactTopic[]; topics: Topic[] }) {
  const api = useApi();
  const cache = useProjectCache();
  const canEdit = useCan('editor');
  const [current, setCurrent] = useState(choices);
  const [checked, setChecked] = useState(() => new Map(choices.map((c) => [c.topicId, c.subscribed])));
  const [saved, setSaved] = useState(false);
  const byId = new Map(topics.map((t) => [t.id, t]));
  const save = useMutation({
    mutationFn: () =>
      setContactTopics(api, contactId, {
        topics: current.map((c) => ({ id: c.topicId, subscribed: checked.get(c.topicId) ?? c.subscribed })),
      }),
    onMutate: () => setSaved(false),
    onSuccess: (next) => {
      setCurrent(next);
      setChecked(new Map(next.map((c) => [c.topicId, c.subscribed])));
      setSaved(true);
      cache.set(['contacts', contactId, 'topics'], next);
      void cache.invalidate(['contacts', contactId, 'consent']);
    },
  });
  if (current.length === 0)
    return (
      <p className="muted">
        This project has no topics. <Link to="/topics">Add one</Link> to let contacts choose what they hear about.
      </p>
    );
  return (
    <form onSubmit={submitWith(() => save.mutate())} aria-label="Topic choices">
      <fieldset disabled={!canEdit}>
        <legend>Subscribed to</legend>
        {current.map((c) => (
          <label key={c.topicId} className="check">
            <input
              type="checkbox"
              checked={checked.get(c.topicId) ?? c.subscribed}
              onChange={(e) => {
                setSaved(false);
                setChecked((m) => new Map(m).set(c.topicId, e.target.checked));
              }}
            />{' '}
            {c.name} <span className="muted">({defaultOf(byId.get(c.topicId))})</span>
          </label>
        ))}
      </fieldset>
      {canEdit && (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            Save topics
          </button>
          {saved && save.error === null && (
            <span role="status" className="ok">
              Topics saved
            </span>
          )}
        </div>
      )}
      {save.error !== null && <ErrorMessage error={save.error} />}
    </form>
  );
}

/** The contact's topic choices as checkboxes, each with the topic's default; saved with PATCH /contacts/{id}/topics. */
export function ContactTopics({ contactId }: { contactId: string }) {
  const choices = useProjectQuery(['contacts', contactId, 'topics'], (api) => listContactTopics(api, contactId));
  const topics = useProjectQuery(['topics', 'all'], listAllTopics);
  const state = {
    data: choices.data && topics.data ? { choices: choices.data, topics: topics.data } : undefined,
    error: choices.error ?? topics.error,
    refetch: () => Promise.all([choices.refetch(), topics.refetch()]),
  };
  return (
    <section className="panel" aria-labelledby="contact-topics-title">
      <h2 id="contact-topics-title">Topics</h2>
      <AsyncView state={state}>
        {({ choices, topics }) => <TopicChoices contactId={contactId} choices={choices} topics={topics} />}
      </AsyncView>
    </section>
  );
}
