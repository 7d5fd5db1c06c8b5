import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache } from '../../../shared/api/queries.ts';
import type { Email } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { formatDateTime, toLocalInput } from '../../../shared/format.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton } from '../../../shared/ui/buttons.tsx';
import { cancelEmail, rescheduleEmail } from '../api.ts';

/** A SCHEDULED email's time, with Reschedule and Cancel (a QUEUED or DEFERRED one can be cancelled too). */
export function EmailSchedule({ email }: { email: Email }) {
  const api = useApi();
  const cache = useProjectCache();
  const changed = () => void cache.invalidate(['emails']);
  // Rescheduling and cancelling are an editor's; a viewer sees when it goes out.
  const canEdit = useCan('editor');
  const scheduled = email.status === 'SCHEDULED';
  const [when, setWhen] = useState(() => toLocalInput(new Date(email.scheduledAt ?? Date.now() + 60 * 60 * 1000)));
  const reschedule = useMutation({
    mutationFn: () => rescheduleEmail(api, email.id, new Date(when).toISOString()),
    onSuccess: changed,
  });
  const cancel = useMutation({ mutationFn: () => cancelEmail(api, email.id), onSuccess: changed });
  if (!['SCHEDULED', 'QUEUED', 'DEFERRED'].includes(email.status)) return null;
  return (
    <section className="panel" aria-labelledby="schedule-title">
      <h2 id="schedule-title">{scheduled ? 'Scheduled' : 'Not sent yet'}</h2>
      {scheduled && (
        <p>
          Goes out on <strong data-testid="email-scheduled-at">{formatDateTime(email.scheduledAt)}</strong>.
        </p>
      )}
      {scheduled && canEdit && (
        <form className="inline-form" onSubmit={submitWith(() => reschedule.mutate())} aria-label="Reschedule">
          <div className="field">
            <label htmlFor="e-when">Send at (your time)</label>
            <input id="e-when" type="datetime-local" required value={when} onChange={(e) => setWhen(e.target.value)} />
          </div>
          <button type="submit" className="secondary" disabled={reschedule.isPending}>
            Reschedule
          </button>
        </form>
      )}
      {reschedule.error !== null && <ErrorMessage error={reschedule.error} />}
      {canEdit && (
        <div className="actions">
          <ConfirmButton
            label="Cancel email"
            confirmLabel="Yes, cancel it"
            onConfirm={() => cancel.mutate()}
            disabled={cancel.isPending}
          />
        </div>
      )}
      {cancel.error !== null && <ErrorMessage error={cancel.error} />}
    </section>
  );
}
