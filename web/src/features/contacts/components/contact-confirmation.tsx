import { useProjectQuery } from '../../../shared/api/queries.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { AsyncView } from '../../../shared/ui/async-state.tsx';
import { StatusBadge } from '../../../shared/ui/buttons.tsx';
import { getContactConfirmation } from '../api.ts';

/** Double opt-in: whether the contact confirmed its signup, or when its confirmation email went out. */
export function ContactConfirmation({ contactId }: { contactId: string }) {
  const state = useProjectQuery(['contacts', contactId, 'confirmation'], (api) =>
    getContactConfirmation(api, contactId),
  );
  return (
    <section className="panel" aria-labelledby="contact-confirmation-title">
      <h2 id="contact-confirmation-title">Confirmation</h2>
      <AsyncView state={state}>
        {(c) =>
          c.status === 'NONE' ? (
            <p className="muted">Not signed up with double opt-in.</p>
          ) : (
            <p data-testid="confirmation">
              <StatusBadge status={c.status} />{' '}
              {c.status === 'PENDING' ? (
                <>Confirmation email sent {c.sentAt ? formatDateTime(c.sentAt) : '—'}; not confirmed yet.</>
              ) : (
                <>Confirmed {c.confirmedAt ? formatDateTime(c.confirmedAt) : ''}.</>
              )}
            </p>
          )
        }
      </AsyncView>
    </section>
  );
}
