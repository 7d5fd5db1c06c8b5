import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { MAILBOX_PROVIDERS, type Domain, type MailboxProvider } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { setProviderLimits } from '../api.ts';
import { PROVIDER_NAMES } from '../providers.ts';

type Typed = Record<MailboxProvider, string>;

const typedOf = (domain: Domain): Typed =>
  Object.fromEntries(MAILBOX_PROVIDERS.map((p) => [p, String(domain.providerLimits[p] ?? '')])) as Typed;

/** The most mail per hour the domain sends to each mailbox provider: a number each, blank for no limit. */
export function ProviderLimitsPanel({ domain, onSaved }: { domain: Domain; onSaved: (domain: Domain) => void }) {
  const api = useApi();
  const [typed, setTyped] = useState(() => typedOf(domain));
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      setProviderLimits(
        api,
        domain.id,
        Object.fromEntries(MAILBOX_PROVIDERS.map((p) => [p, typed[p].trim() ? Number(typed[p]) : null])),
      ),
    onSuccess: (next) => {
      setSaved(true);
      onSaved(next);
    },
  });
  return (
    <section className="panel" aria-labelledby="limits-title">
      <h2 id="limits-title">Limits per mailbox provider</h2>
      <p className="hint">
        The most mail per hour from {domain.domain} to each provider; blank: no limit. A &ldquo;slow down&rdquo; reply
        halves a provider&rsquo;s rate for an hour on its own. Mail over the rate waits its turn.
      </p>
      <form onSubmit={submitWith(() => save.mutate())} aria-label="Limits per mailbox provider">
        <div className="provider-limits">
          {MAILBOX_PROVIDERS.map((p) => (
            <div className="field" key={p}>
              <label htmlFor={`limit-${p}`}>{PROVIDER_NAMES[p]} per hour</label>
              <input
                id={`limit-${p}`}
                type="number"
                min={1}
                step={1}
                placeholder="No limit"
                value={typed[p]}
                onChange={(e) => {
                  setSaved(false);
                  setTyped({ ...typed, [p]: e.target.value });
                }}
              />
            </div>
          ))}
        </div>
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            Save limits
          </button>
          {saved && (
            <span role="status" className="ok">
              Saved
            </span>
          )}
        </div>
        {save.error !== null && <ErrorMessage error={save.error} />}
      </form>
    </section>
  );
}
