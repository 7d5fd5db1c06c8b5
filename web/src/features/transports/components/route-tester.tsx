import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { useProjectQuery } from '../../../shared/api/queries.ts';
import { MAIL_STREAMS, type MailStream, type RouteAnswer } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { listAllTransports, testRoute } from '../api.ts';

/** A tag as a send carries it, typed `name:value`; null when the field is blank. */
export function parseTag(text: string): { name: string; value: string } | null {
  const tag = text.trim();
  if (!tag) return null;
  const at = tag.indexOf(':');
  return { name: tag.slice(0, at), value: tag.slice(at + 1) };
}

/** A tag's characters, as the API takes them. */
const TAG_PATTERN = '[A-Za-z0-9_\\-]+:[A-Za-z0-9_\\-]+';

function Answer({ answer, names }: { answer: RouteAnswer; names: Map<string, string> }) {
  const stateOf = (id: string) => answer.states[id];
  return (
    <div className="notice route-answer" role="status" data-testid="route-answer">
      <p>
        Takes <strong data-testid="route-transport">{answer.transportName}</strong>{' '}
        {stateOf(answer.transportId) && <StatusBadge status={stateOf(answer.transportId)!} />}
        {' — '}
        {answer.rule === null ? 'no rule matches: the default transport' : `rule ${answer.rule + 1} matches`}.
      </p>
      <p className="hint">
        Stream: {answer.stream} · recipient&rsquo;s provider: {answer.provider}
        {answer.fallbackIds.length > 0 && (
          <>
            {' · '}fallbacks in order:{' '}
            {answer.fallbackIds.map((id, i) => (
              <span key={id}>
                {i > 0 && ', '}
                {names.get(id) ?? id} {stateOf(id) && <StatusBadge status={stateOf(id)!} />}
              </span>
            ))}
          </>
        )}
      </p>
    </div>
  );
}

/** "Which transport would this email take?": the saved routing asked about one email, and its answer. */
export function RouteTester() {
  const api = useApi();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [stream, setStream] = useState<MailStream | ''>('');
  const [tag, setTag] = useState('');
  const transports = useProjectQuery(['transports', 'choices'], listAllTransports);
  const names = new Map((transports.data?.items ?? []).map((t) => [t.id, t.name]));
  const ask = useMutation({
    mutationFn: () => {
      const parsed = parseTag(tag);
      return testRoute(api, {
        from: from.trim(),
        to: to.trim(),
        ...(stream ? { stream } : {}),
        ...(parsed ? { tags: [parsed] } : {}),
      });
    },
  });
  return (
    <section className="panel" aria-labelledby="route-test-title">
      <h2 id="route-test-title">Which transport would this email take?</h2>
      <p className="hint">Asks the saved rules, with each transport&rsquo;s state now.</p>
      <form className="inline-form" onSubmit={submitWith(() => ask.mutate())} aria-label="Route tester">
        <div className="field">
          <label htmlFor="route-from">From</label>
          <input
            id="route-from"
            type="email"
            required
            placeholder="news@example.com"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="route-to">To</label>
          <input
            id="route-to"
            type="email"
            required
            placeholder="someone@gmail.com"
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="route-stream">Stream</label>
          <select id="route-stream" value={stream} onChange={(e) => setStream(e.target.value as MailStream | '')}>
            <option value="">As a send decides</option>
            {MAIL_STREAMS.map((s) => (
              <option key={s} value={s}>
                {s === 'marketing' ? 'Marketing' : 'Transactional'}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="route-tag">Tag</label>
          <input
            id="route-tag"
            placeholder="name:value"
            pattern={TAG_PATTERN}
            title="A tag as a send carries it: name:value (letters, digits, _ or -)"
            value={tag}
            onChange={(e) => setTag(e.target.value)}
          />
        </div>
        <button type="submit" disabled={ask.isPending}>
          Find the transport
        </button>
        {ask.error !== null && <ErrorMessage error={ask.error} />}
      </form>
      {ask.data && <Answer answer={ask.data} names={names} />}
    </section>
  );
}
