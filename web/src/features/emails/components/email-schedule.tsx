import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import type { Email } from '../../../shared/api/types.ts';
import { formatDateTime, toLocalInput } from '../../../shared/format.ts';
import { submitWith, useAction } from '../../../shared/hooks/use-action.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton } from '../../../shared/ui/buttons.tsx';
import { cancelEmail, rescheduleEmail } from '../api.ts';

/** A SCHEDULED email's time, with Reschedule and Cancel (a QUEUED or DEFERRED one can be cancelled too). */
export function EmailSchedule({ email, onChanged }: { email: Email; onChanged: () => void }) {
  const api = useApi();
  // Rescheduling and cancelling are an editor's; a viewer sees when it goes out.
  const canEdit = useCan('editor');
  const scheduled = email.status === 'SCHEDULED';
  const [when, setWhen] = useState(() => toLocalInput(new Date(email.scheduledAt ?? Date.now() + 60 * 60 * 1000)));
  const reschedule = useAction(async () => {
    await rescheduleEmail(api, email.id, new Date(when).toISOString());
    onChanged();
  });
  const cancel = useAction(async () => {
    await cancelEmail(api, email.id);
    onChanged();
  });
  if (!['SCHEDULED', 'QUEUED', 'DEFERRED'].includes(email.status)) return null;
  return (
    <section className="panel" aria-labelledby="schedule-title">
      <h2 id="schedule-title">{scheduled ? 'Scheduled' : 'Not sent yet'}</h2>
      {scheduled && <p>Goes out on <strong data-testid="email-scheduled-at">{formatDateTime(email.scheduledAt)}</strong>.</p>}
      {scheduled && canEdit && (
        <form className="inline-form" onSubmit={submitWith(reschedule.run)} aria-label="Reschedule">
          <div className="field"><label htmlFor="e-when">Send at (your time)</label><input id="e-when" type="datetime-local" required value={when} onChange={(e) => setWhen(e.target.value)} /></div>
          <button type="submit" className="secondary" disabled={reschedule.busy}>Reschedule</button>
        </form>
      )}
      {reschedule.error !== null && <ErrorMessage error={reschedule.error} />}
      {canEdit && (
        <div className="actions">
          <ConfirmButton label="Cancel email" confirmLabel="Yes, cancel it" onConfirm={() => void cancel.run()}
            disabled={cancel.busy} />
        </div>
      )}
      {cancel.error !== null && <ErrorMessage error={cancel.error} />}
    </section>
  );
}
