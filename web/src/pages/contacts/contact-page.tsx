import { useEffect, useState } from 'react';
import { seg } from '../../api/client.ts';
import type { Contact, JsonObject } from '../../api/types.ts';
import { useApi } from '../../auth/session-context.tsx';
import { AsyncView, ErrorMessage } from '../../components/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../components/buttons.tsx';
import { JsonField } from '../../components/json-field.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { submitWith, useAction } from '../../lib/use-action.ts';
import { useAsync } from '../../lib/use-async.ts';
import { navigate } from '../../router.tsx';
import { PageHeader } from '../../shell.tsx';
import { ContactTimeline } from './contact-timeline.tsx';

/** PATCH merges data key by key: keys the user removed are sent as null. */
export function dataChanges(before: JsonObject, after: JsonObject): JsonObject {
  const changes: JsonObject = { ...after };
  for (const key of Object.keys(before)) if (!(key in after)) changes[key] = null;
  return changes;
}

function EditContact({ contact, onSaved }: { contact: Contact; onSaved: (c: Contact) => void }) {
  const api = useApi();
  const [email, setEmail] = useState(contact.email);
  const [subscribed, setSubscribed] = useState(contact.subscribed);
  const [data, setData] = useState<JsonObject>(contact.data);
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [email, subscribed, data]);
  const save = useAction(async () => {
    const body = { ...(email !== contact.email ? { email } : {}), subscribed, data: dataChanges(contact.data, data) };
    onSaved(await api.patch<Contact>(`/contacts/${seg(contact.id)}`, body));
    setSaved(true);
  });
  const submit = submitWith(save.run);
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="edit-contact-title">
      <h2 id="edit-contact-title">Details</h2>
      <div className="field">
        <label htmlFor="contact-email">Email</label>
        <input id="contact-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <label className="check"><input type="checkbox" checked={subscribed} onChange={(e) => setSubscribed(e.target.checked)} /> Subscribed to marketing email</label>
      <JsonField label="Data" value={data} onChange={setData} rows={8} hint="A JSON object; templates read it as {{ key }}." />
      <p className="muted">Added {formatDateTime(contact.createdAt)} · updated {formatDateTime(contact.updatedAt)}</p>
      <div className="actions">
        <button type="submit" disabled={save.busy}>Save contact</button>
        {saved && <span role="status" className="ok">Saved</span>}
      </div>
      {save.error !== null && <ErrorMessage error={save.error} />}
    </form>
  );
}

/** One contact: edit data and subscription, delete, and everything that happened to it. */
export function ContactPage({ id }: { id: string }) {
  const api = useApi();
  const state = useAsync(() => api.get<Contact>(`/contacts/${seg(id)}`), [api, id]);
  const remove = useAction(async () => {
    await api.delete(`/contacts/${seg(id)}`);
    navigate('/contacts');
  });
  return (
    <AsyncView state={state}>
      {(contact) => (
        <>
          <PageHeader title={contact.email} back={['/contacts', 'Contacts']}>
            <StatusBadge status={contact.subscribed ? 'subscribed' : 'unsubscribed'} />
            <ConfirmButton label="Delete contact" onConfirm={() => void remove.run()} disabled={remove.busy} />
          </PageHeader>
          {remove.error !== null && <ErrorMessage error={remove.error} />}
          <div className="two-columns">
            <EditContact key={contact.id} contact={contact} onSaved={state.setData} />
            <ContactTimeline contactId={contact.id} />
          </div>
        </>
      )}
    </AsyncView>
  );
}
