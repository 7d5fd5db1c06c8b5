import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { findContactByEmail } from '../api.ts';

type Picked = { id: string; email: string } | null;

/** Picks a contact whose address and data the preview renders with, instead of the sample data. */
export function PreviewContact({ contact, onChange }: { contact: Picked; onChange: (c: Picked) => void }) {
  const api = useApi();
  const [email, setEmail] = useState('');
  const [missing, setMissing] = useState(false);
  const pick = useMutation({
    mutationFn: () => findContactByEmail(api, email.trim()),
    onSuccess: (found) => {
      setMissing(!found);
      onChange(found ? { id: found.id, email: found.email } : null);
    },
  });
  if (contact) {
    return (
      <p className="hint" role="status">
        Previewing as contact <strong>{contact.email}</strong> (its data).{' '}
        <button type="button" className="secondary small" onClick={() => onChange(null)}>
          Use sample data
        </button>
      </p>
    );
  }
  return (
    <div className="field">
      <label htmlFor="preview-contact">Preview as a contact (address)</label>
      <div className="inline-form">
        <input id="preview-contact" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <button
          type="button"
          className="secondary"
          disabled={pick.isPending || email.trim() === ''}
          onClick={() => pick.mutate()}
        >
          Use contact
        </button>
      </div>
      {missing && <p className="field-error">No contact has this address.</p>}
      {pick.error !== null && <ErrorMessage error={pick.error} />}
    </div>
  );
}
