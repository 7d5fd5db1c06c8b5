import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { formatDateTime } from '../../../shared/format.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { shareEmail } from '../api.ts';

const DURATIONS = [
  ['1h', 'an hour'],
  ['1d', 'a day'],
  ['7d', 'a week'],
  ['30d', '30 days'],
  ['90d', '90 days'],
] as const;

/** Share: a signed link to the email as its recipient reads it, for a chosen time (editors and above). */
export function EmailShare({ id }: { id: string }) {
  const api = useApi();
  const [expiresIn, setExpiresIn] = useState('7d');
  const share = useMutation({ mutationFn: () => shareEmail(api, id, expiresIn) });
  return (
    <section className="panel" aria-labelledby="share-title">
      <h2 id="share-title">Share</h2>
      <p className="hint">
        A link to the email as its recipient reads it: anyone with it can read it until it expires. Opening it counts no
        open or click, and remote images load only when the reader asks.
      </p>
      <div className="row">
        <label>
          Works for{' '}
          <select value={expiresIn} onChange={(e) => setExpiresIn(e.target.value)}>
            {DURATIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="secondary" onClick={() => share.mutate()} disabled={share.isPending}>
          Create share link
        </button>
      </div>
      {share.error !== null && <ErrorMessage error={share.error} />}
      {share.data && (
        <p>
          <a href={share.data.url} target="_blank" rel="noreferrer" className="wrap" data-testid="share-url">
            {share.data.url}
          </a>{' '}
          <span className="muted">until {formatDateTime(share.data.expiresAt)}</span>
        </p>
      )}
    </section>
  );
}
