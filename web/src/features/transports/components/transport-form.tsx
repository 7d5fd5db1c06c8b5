import { useMutation } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import type { Transport, TransportType } from '../../../shared/api/types.ts';
import { TRANSPORT_TYPES } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { FieldErrorsProvider, FieldProblem, fieldsOf, useInvalid } from '../../templates/components/field-errors.tsx';
import { toFormValues, type TransportFormValues } from '../transport-form.ts';

export const TYPE_LABELS: Record<TransportType, string> = {
  smtp: 'SMTP server',
  ses: 'Amazon SES',
  outbox: 'Outbox (kept in Herald, nothing leaves)',
};

/** A labelled input whose problems (a 422 naming `path`) show under it. */
function Field({
  label,
  path,
  hint,
  children,
}: {
  label: string;
  path: string;
  hint?: ReactNode;
  children: (props: { id: string } & ReturnType<typeof useInvalid>) => ReactNode;
}) {
  const id = useId();
  const invalid = useInvalid(path, `${id}-problem`);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...invalid })}
      {hint && <p className="hint">{hint}</p>}
      <FieldProblem path={path} id={`${id}-problem`} />
    </div>
  );
}

/** The note beside a secret's field: whether one is saved (it is never shown back). */
function SecretNote({ saved, editing }: { saved: boolean; editing: boolean }) {
  if (!editing) return <>Stored encrypted; never shown again.</>;
  return saved ? (
    <>
      <span className="badge badge-good" data-testid="secret-saved">
        SAVED
      </span>{' '}
      Leave blank to keep the saved one.
    </>
  ) : (
    <>None saved.</>
  );
}

function SmtpFields({ values, set, transport }: FieldsProps) {
  const smtp = values.smtp;
  const change = (patch: Partial<TransportFormValues['smtp']>) => set({ smtp: { ...smtp, ...patch } });
  const saved = transport?.config.hasPassword ?? false;
  return (
    <>
      <div className="grid-2">
        <Field label="Host" path="config.host">
          {(p) => (
            <input
              {...p}
              required
              placeholder="smtp.example.com"
              value={smtp.host}
              onChange={(e) => change({ host: e.target.value })}
            />
          )}
        </Field>
        <Field label="Port" path="config.port">
          {(p) => (
            <input
              {...p}
              type="number"
              required
              min={1}
              max={65535}
              value={smtp.port}
              onChange={(e) => change({ port: e.target.value })}
            />
          )}
        </Field>
        <Field label="Username" path="config.username">
          {(p) => (
            <input
              {...p}
              autoComplete="off"
              value={smtp.username}
              onChange={(e) => change({ username: e.target.value })}
            />
          )}
        </Field>
        <Field label="Password" path="config.password" hint={<SecretNote saved={saved} editing={!!transport} />}>
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="new-password"
              value={smtp.password}
              onChange={(e) => change({ password: e.target.value })}
            />
          )}
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={smtp.secure} onChange={(e) => change({ secure: e.target.checked })} /> TLS from
        the start (port 465); otherwise STARTTLS when offered
      </label>
    </>
  );
}

function SesFields({ values, set, transport }: FieldsProps) {
  const ses = values.ses;
  const change = (patch: Partial<TransportFormValues['ses']>) => set({ ses: { ...ses, ...patch } });
  const saved = transport?.config.hasSecretAccessKey ?? false;
  return (
    <div className="grid-2">
      <Field label="Region" path="config.region">
        {(p) => (
          <input
            {...p}
            required
            placeholder="eu-west-1"
            value={ses.region}
            onChange={(e) => change({ region: e.target.value })}
          />
        )}
      </Field>
      <Field label="Access key ID" path="config.accessKeyId">
        {(p) => (
          <input
            {...p}
            required
            autoComplete="off"
            value={ses.accessKeyId}
            onChange={(e) => change({ accessKeyId: e.target.value })}
          />
        )}
      </Field>
      <Field
        label="Secret access key"
        path="config.secretAccessKey"
        hint={<SecretNote saved={saved} editing={!!transport} />}
      >
        {(p) => (
          <input
            {...p}
            type="password"
            required={!transport}
            autoComplete="new-password"
            value={ses.secretAccessKey}
            onChange={(e) => change({ secretAccessKey: e.target.value })}
          />
        )}
      </Field>
      <Field
        label="SNS topic ARNs"
        path="config.snsTopicArns"
        hint="One a line: the topics whose bounce and complaint notifications Herald accepts for this transport."
      >
        {(p) => (
          <textarea
            {...p}
            rows={2}
            value={ses.snsTopicArns}
            onChange={(e) => change({ snsTopicArns: e.target.value })}
          />
        )}
      </Field>
    </div>
  );
}

interface FieldsProps {
  values: TransportFormValues;
  set: (patch: Partial<TransportFormValues>) => void;
  transport: Transport | undefined;
}

/**
 * A transport's name, type (chosen when it is added), the settings of its type and its limits; `transport`: the one
 * being edited.
 */
export function TransportForm({
  transport,
  submitLabel,
  onSubmit,
}: {
  transport?: Transport;
  submitLabel: string;
  onSubmit: (values: TransportFormValues) => Promise<unknown>;
}) {
  const [values, setValues] = useState(() => toFormValues(transport));
  const set = (patch: Partial<TransportFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const save = useMutation({ mutationFn: () => onSubmit(values) });
  const submit = submitWith(() => save.mutate());
  const fields = { values, set, transport };
  return (
    <form
      className="panel transport-form"
      onSubmit={submit}
      aria-label={transport ? 'Transport settings' : 'New transport'}
    >
      <FieldErrorsProvider errors={fieldsOf(save.error)}>
        <div className="grid-2">
          <Field label="Name" path="name">
            {(p) => <input {...p} required value={values.name} onChange={(e) => set({ name: e.target.value })} />}
          </Field>
          {transport ? (
            <div className="field">
              <span className="label">Type</span>
              <span>{TYPE_LABELS[transport.type]}</span>
            </div>
          ) : (
            <Field label="Type" path="type">
              {(p) => (
                <select {...p} value={values.type} onChange={(e) => set({ type: e.target.value as TransportType })}>
                  {TRANSPORT_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {TYPE_LABELS[type]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
        </div>
        {values.type === 'smtp' && <SmtpFields {...fields} />}
        {values.type === 'ses' && <SesFields {...fields} />}
        {values.type === 'outbox' && (
          <p className="hint">
            Mail routed here is kept in Herald: the Emails page shows each message&rsquo;s source. Nothing is delivered.
          </p>
        )}
        <div className="grid-2">
          <Field label="Most messages per second" path="maxPerSecond" hint="Blank: no limit of its own.">
            {(p) => (
              <input
                {...p}
                type="number"
                min={1}
                value={values.maxPerSecond}
                onChange={(e) => set({ maxPerSecond: e.target.value })}
              />
            )}
          </Field>
          <Field label="Most connections at once" path="maxConnections" hint="Blank: the instance's default.">
            {(p) => (
              <input
                {...p}
                type="number"
                min={1}
                value={values.maxConnections}
                onChange={(e) => set({ maxConnections: e.target.value })}
              />
            )}
          </Field>
        </div>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : submitLabel}
        </button>
        {save.error !== null && <ErrorMessage error={save.error} />}
      </FieldErrorsProvider>
    </form>
  );
}
