import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import type { ContactDetail } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { updateContact } from '../api.ts';

/** The date (YYYY-MM-DD, local) `days` from today: the form's first suggestion. */
function dateIn(days: number): string {
  const at = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/**
 * Snooze: marketing mail to the contact paused until a day (the start of that day, here), or resumed. The server
 * takes at most a year ahead and says why otherwise.
 */
export function ContactSnooze({ contact, onSaved }: { contact: ContactDetail; onSaved: (c: ContactDetail) => void }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const [day, setDay] = useState(dateIn(14));
  const change = useMutation({
    mutationFn: (snoozedUntil: string | null) => updateContact(api, contact.id, { snoozedUntil }),
    onSuccess: onSaved,
  });
  const submit = submitWith(() => change.mutate(new Date(`${day}T00:00:00`).toISOString()));
  return (
    <section className="panel" aria-labelledby="contact-snooze-title">
      <h2 id="contact-snooze-title">Snooze</h2>
      {contact.snoozedUntil ? (
        <>
          <p data-testid="snoozed-until">
            Marketing email paused until <strong>{formatDateTime(contact.snoozedUntil)}</strong>. Transactional email
            still goes.
          </p>
          {canEdit && (
            <button type="button" className="secondary" disabled={change.isPending} onClick={() => change.mutate(null)}>
              Resume now
            </button>
          )}
        </>
      ) : canEdit ? (
        <form onSubmit={submit}>
          <div className="field">
            <label htmlFor="contact-snooze-until">Pause marketing email until</label>
            <input
              id="contact-snooze-until"
              type="date"
              required
              value={day}
              min={dateIn(1)}
              max={dateIn(365)}
              onChange={(e) => setDay(e.target.value)}
            />
            <p className="hint">At most a year ahead. The contact can also pause from the preference page.</p>
          </div>
          <div className="actions">
            <button type="submit" disabled={change.isPending}>
              Pause
            </button>
          </div>
        </form>
      ) : (
        <p className="muted">Not snoozed.</p>
      )}
      {change.error !== null && <ErrorMessage error={change.error} />}
    </section>
  );
}
