import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import type { ContactDetail, JsonObject } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { formatDateTime } from '../../../shared/format.ts';
import { navigate } from '../../../shared/router.tsx';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton, StatusBadge } from '../../../shared/ui/buttons.tsx';
import { JsonField } from '../../../shared/ui/json-field.tsx';
import { PageHeader } from '../../../shared/ui/page-header.tsx';
import { ReadOnly } from '../../../shared/ui/read-only.tsx';
import { saveBlob } from '../../../shared/download.ts';
import { deleteContact, exportContact, getContact, updateContact } from '../api.ts';
import { ContactConfirmation } from '../components/contact-confirmation.tsx';
import { ContactConsent } from '../components/contact-consent.tsx';
import { LocaleField, localeProblem } from '../components/contact-locale.tsx';
import { ContactSnooze } from '../components/contact-snooze.tsx';
import { ContactTimeline } from '../components/contact-timeline.tsx';
import { ContactTopics } from '../components/contact-topics.tsx';

/** PATCH merges data key by key: keys the user removed are sent as null. */
export function dataChanges(before: JsonObject, after: JsonObject): JsonObject {
  const changes: JsonObject = { ...after };
  for (const key of Object.keys(before)) if (!(key in after)) changes[key] = null;
  return changes;
}

function EditContact({ contact, onSaved }: { contact: ContactDetail; onSaved: (c: ContactDetail) => void }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const [email, setEmail] = useState(contact.emailUnicode);
  const [subscribed, setSubscribed] = useState(contact.subscribed);
  const [locale, setLocale] = useState(contact.locale ?? '');
  const [data, setData] = useState<JsonObject>(contact.data);
  const [dataProblem, setDataProblem] = useState<string | null>(null);
  // "Saved" stays while the form shows what was saved: any change after it takes it away.
  const shown = JSON.stringify([email, subscribed, locale, data, dataProblem]);
  const [savedForm, setSavedForm] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => {
      // The text in the Data box is not JSON: saving the last valid value behind it would not be what the user sees.
      if (dataProblem !== null)
        throw new Error(`Data is not a valid JSON object (${dataProblem}). Fix it before saving.`);
      // An empty field clears the locale; an unchanged one is not sent.
      const nextLocale = locale.trim() === '' ? null : locale.trim();
      const body = {
        ...(email !== contact.emailUnicode ? { email } : {}),
        subscribed,
        ...(nextLocale !== contact.locale ? { locale: nextLocale } : {}),
        data: dataChanges(contact.data, data),
      };
      return updateContact(api, contact.id, body);
    },
    onMutate: () => setSavedForm(null),
    onSuccess: (result) => {
      onSaved(result);
      // The server stores the tag in canonical case (pt-br → pt-BR): the field shows what was stored.
      setLocale(result.locale ?? '');
      setSavedForm(JSON.stringify([email, subscribed, result.locale ?? '', data, dataProblem]));
    },
  });
  const saved = savedForm === shown;
  const submit = submitWith(() => save.mutate());
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="edit-contact-title">
      <h2 id="edit-contact-title">Details</h2>
      <div className="field">
        <label htmlFor="contact-email">Email</label>
        <input id="contact-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <label className="check">
        <input type="checkbox" checked={subscribed} onChange={(e) => setSubscribed(e.target.checked)} /> Subscribed to
        marketing email
      </label>
      <LocaleField value={locale} onChange={setLocale} problem={localeProblem(save.error)} />
      <JsonField
        label="Data"
        value={data}
        onChange={setData}
        onProblem={setDataProblem}
        rows={8}
        hint="A JSON object; templates read it as {{ key }}."
      />
      <p className="muted">
        Added {formatDateTime(contact.createdAt)} · updated {formatDateTime(contact.updatedAt)}
      </p>
      {canEdit && (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            Save contact
          </button>
          {saved && save.error === null && dataProblem === null && (
            <span role="status" className="ok">
              Saved
            </span>
          )}
        </div>
      )}
      {save.error !== null && <ErrorMessage error={save.error} />}
    </form>
  );
}

/**
 * One contact: edit data, subscription and topics, its confirmation, export its data, delete, and everything that
 * happened to it.
 */
export function ContactPage({ id }: { id: string }) {
  const api = useApi();
  const canEdit = useCan('editor');
  const cache = useProjectCache();
  const state = useProjectQuery(['contacts', id], (client) => getContact(client, id));
  const remove = useMutation({
    mutationFn: () => deleteContact(api, id),
    onSuccess: () => {
      navigate('/contacts');
      cache.forget(['contacts', id]);
      void cache.invalidate(['contacts']);
    },
  });
  const download = useMutation({ mutationFn: () => saveBlob(() => exportContact(api, id), `contact-${id}.json`) });
  const saved = (contact: ContactDetail) => {
    cache.set(['contacts', id], contact);
    void cache.invalidate(['contacts']);
  };
  return (
    <AsyncView state={state}>
      {(contact) => (
        <>
          <PageHeader
            title={contact.emailUnicode}
            back={['/contacts', 'Contacts']}
            id={{ noun: 'Contact', value: contact.id }}
          >
            {/* Where it stands by the consent ledger: one who never subscribed is not shown as an opt-out. */}
            <StatusBadge status={contact.subscription} />
            {canEdit && (
              <>
                <button
                  type="button"
                  className="secondary"
                  disabled={download.isPending}
                  onClick={() => download.mutate()}
                >
                  Export data
                </button>
                <ConfirmButton label="Delete contact" onConfirm={() => remove.mutate()} disabled={remove.isPending} />
              </>
            )}
          </PageHeader>
          {[remove.error, download.error]
            .filter((e) => e !== null)
            .map((e, i) => (
              <ErrorMessage key={i} error={e} />
            ))}
          <div className="two-columns">
            <div className="stack">
              <ReadOnly when={!canEdit}>
                <EditContact key={contact.id} contact={contact} onSaved={saved} />
              </ReadOnly>
              <ContactSnooze contact={contact} onSaved={saved} />
              <ContactTopics contactId={contact.id} />
              <ContactConfirmation contactId={contact.id} />
              <ContactConsent contactId={contact.id} />
            </div>
            <ContactTimeline contactId={contact.id} />
          </div>
        </>
      )}
    </AsyncView>
  );
}
