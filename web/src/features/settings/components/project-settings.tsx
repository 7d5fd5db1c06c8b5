import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi, useCan, useSession } from '../../../app/session/session-context.tsx';
import { useProjectCache, useProjectQuery } from '../../../shared/api/queries.ts';
import { submitWith } from '../../../shared/forms.ts';
import { AsyncView, ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { fieldsOf } from '../../templates/components/field-errors.tsx';
import { getSettings, listTemplates, updateSettings, type SettingsChange } from '../api.ts';

type Form = Required<Omit<SettingsChange, 'doubleOptIn' | 'requireTwoFactor' | 'frequencyCap' | 'defaultFrom'>> & {
  templateId: string;
  /** The default sender as typed; empty: none. */
  defaultFrom: string;
  /** The frequency cap: on or off, and its figures (kept while off, so turning it on again restores them). */
  capOn: boolean;
  capMax: number;
  capDays: number;
};
type Settings = Awaited<ReturnType<typeof getSettings>>;

const TRACKING: { value: Form['tracking']; label: string }[] = [
  { value: 'MARKETING_ONLY', label: 'Marketing mail only' },
  { value: 'ALL', label: 'All mail' },
  { value: 'NONE', label: 'None' },
];

/**
 * Whether the project's members must sign in with two-factor: an owner's choice (keys never act on people). Someone
 * without two-factor then can do nothing in the project but set it up.
 */
function RequireTwoFactor({ settings, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
  const api = useApi();
  const { account } = useSession();
  const isOwner = useCan('owner');
  const change = useMutation({
    mutationFn: (on: boolean) => updateSettings(api, { requireTwoFactor: on }),
    onSuccess: onSaved,
  });
  const hint = !isOwner
    ? 'Only an owner changes this.'
    : account && !account.user.twoFactor
      ? 'Set up two-factor on your profile first: members without it can then do nothing here but that.'
      : 'Members without two-factor can then do nothing in this project but set it up on their profile.';
  return (
    <div className="require-two-factor">
      <label className="check">
        <input
          type="checkbox"
          checked={settings.requireTwoFactor}
          disabled={!isOwner || change.isPending}
          onChange={(e) => change.mutate(e.target.checked)}
        />{' '}
        Require two-factor sign-in of every member
      </label>
      <p className="hint">{hint}</p>
      {change.error !== null && <ErrorMessage error={change.error} />}
    </div>
  );
}

/** A rate the API keeps as a fraction (0.08) as people type and read it: a percentage (8), without float noise. */
const toPercent = (fraction: number): number => Number((fraction * 100).toPrecision(10));

/** A required number input with its label, as the settings form has several. */
function NumberField(props: {
  id: string;
  label: string;
  min: string;
  max: string;
  step: string;
  value: number;
  onChange: (value: number) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="number"
        min={props.min}
        max={props.max}
        step={props.step}
        required
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value))}
      />
    </div>
  );
}

/**
 * The project's settings: name, time zone, tracking, double opt-in, the default sender, reputation thresholds (typed as
 * percentages) and the frequency cap.
 */
export function ProjectSettingsPanel() {
  const api = useApi();
  const cache = useProjectCache();
  // Settings are the project's configuration: admins change them, others read them.
  const canEdit = useCan('admin');
  const { session } = useSession();
  const settings = useProjectQuery(['settings'], getSettings);
  const templates = useProjectQuery(['templates', 'choices'], listTemplates);
  const [form, setForm] = useState<Form | null>(null);
  const [formOf, setFormOf] = useState<Settings | null>(null);
  const [saved, setSaved] = useState(false);
  if (settings.data && settings.data !== formOf) {
    // The settings as last read (or saved) fill the form anew.
    const s = settings.data;
    setFormOf(s);
    setForm({
      name: s.name,
      timezone: s.timezone,
      tracking: s.tracking,
      templateId: s.doubleOptIn?.templateId ?? '',
      defaultFrom: s.defaultFrom ?? '',
      maxBounceRate: s.maxBounceRate,
      maxComplaintRate: s.maxComplaintRate,
      capOn: s.frequencyCap !== null,
      capMax: s.frequencyCap?.max ?? 3,
      capDays: s.frequencyCap ? Number.parseInt(s.frequencyCap.per, 10) : 7,
    });
  }
  const savedSettings = (next: Settings) => cache.set(['settings'], next);
  const save = useMutation({
    mutationFn: () => {
      const { templateId, capOn, capMax, capDays, defaultFrom, ...rest } = form!;
      return updateSettings(api, {
        ...rest,
        defaultFrom: defaultFrom.trim() || null,
        doubleOptIn: templateId ? { templateId } : null,
        frequencyCap: capOn ? { max: capMax, per: `${capDays}d` } : null,
      });
    },
    onSuccess: (next) => {
      savedSettings(next);
      setSaved(true);
    },
  });
  // A problem with the default sender shows under its field, and not a second time below the form.
  const problems = fieldsOf(save.error);
  const fromProblem = problems.find((f) => f.field === 'defaultFrom')?.message;
  const onlyFromProblem = fromProblem !== undefined && problems.every((f) => f.field === 'defaultFrom');
  const set = (patch: Partial<Form>) => {
    setSaved(false);
    setForm((f) => (f ? { ...f, ...patch } : f));
  };
  return (
    <section className="panel" aria-labelledby="project-settings-title">
      <h2 id="project-settings-title">Project settings</h2>
      {settings.data?.name === 'Default' && (
        <p className="notice" data-testid="name-project">
          This project is still called “Default”: recipients see your sender domain in its place on their unsubscribe
          and preference pages. Name it after your organisation or product.
        </p>
      )}
      <AsyncView state={settings}>
        {() =>
          form && (
            <form onSubmit={submitWith(() => save.mutate())} aria-label="Project settings">
              <div className="grid-2">
                <div className="field">
                  <label htmlFor="set-name">Project name</label>
                  <input id="set-name" required value={form.name} onChange={(e) => set({ name: e.target.value })} />
                </div>
                <div className="field">
                  <label htmlFor="set-tz">Time zone</label>
                  <input
                    id="set-tz"
                    required
                    placeholder="Europe/Paris"
                    value={form.timezone}
                    onChange={(e) => set({ timezone: e.target.value })}
                  />
                </div>
                <div className="field">
                  <label htmlFor="set-tracking">Open and click tracking</label>
                  <select
                    id="set-tracking"
                    value={form.tracking}
                    onChange={(e) => set({ tracking: e.target.value as Form['tracking'] })}
                  >
                    {TRACKING.map((t) => (
                      <option key={t.value} value={t.value}>
                        {t.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="set-doi">Double opt-in confirmation</label>
                  <select id="set-doi" value={form.templateId} onChange={(e) => set({ templateId: e.target.value })}>
                    <option value="">Off</option>
                    {(templates.data?.items ?? []).map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="set-from">Default sender</label>
                  <input
                    id="set-from"
                    placeholder="Acme <hello@acme.com>"
                    value={form.defaultFrom}
                    onChange={(e) => set({ defaultFrom: e.target.value })}
                    aria-describedby="set-from-note"
                    {...(fromProblem ? { 'aria-invalid': true } : {})}
                  />
                  <p
                    id="set-from-note"
                    className={fromProblem ? 'field-error' : 'hint'}
                    role={fromProblem ? 'alert' : undefined}
                  >
                    {fromProblem ??
                      'Sends and campaigns without a sender use it: an address on a verified domain, with a name ' +
                        'if you like.'}
                  </p>
                </div>
                <NumberField
                  id="set-bounce"
                  label="Pause a campaign above this bounce rate (%)"
                  min="0.01"
                  max="100"
                  step="any"
                  value={toPercent(form.maxBounceRate)}
                  onChange={(n) => set({ maxBounceRate: n / 100 })}
                />
                <NumberField
                  id="set-complaint"
                  label="… or this complaint rate (%)"
                  min="0.01"
                  max="100"
                  step="any"
                  value={toPercent(form.maxComplaintRate)}
                  onChange={(n) => set({ maxComplaintRate: n / 100 })}
                />
              </div>
              <fieldset className="frequency-cap">
                <legend>Frequency cap</legend>
                <label className="check">
                  <input type="checkbox" checked={form.capOn} onChange={(e) => set({ capOn: e.target.checked })} />{' '}
                  Limit the marketing email each contact gets
                </label>
                {form.capOn && (
                  <div className="grid-2">
                    <NumberField
                      id="set-cap-max"
                      label="At most this many emails"
                      min="1"
                      max="1000"
                      step="1"
                      value={form.capMax}
                      onChange={(n) => set({ capMax: n })}
                    />
                    <NumberField
                      id="set-cap-days"
                      label="… in any this many days"
                      min="1"
                      max="90"
                      step="1"
                      value={form.capDays}
                      onChange={(n) => set({ capDays: n })}
                    />
                  </div>
                )}
                <p className="hint">
                  Campaigns and marketing workflow steps count; a contact at the cap is skipped (suppressed, reason
                  FREQUENCY_CAP) until an email ages out. Transactional email is never held, and a campaign can be set
                  to ignore the cap.
                </p>
              </fieldset>
              {canEdit && (
                <button type="submit" disabled={save.isPending}>
                  Save settings
                </button>
              )}
              {saved && (
                <span role="status" className="muted">
                  {' '}
                  Saved.
                </span>
              )}
              {save.error !== null && !onlyFromProblem && <ErrorMessage error={save.error} />}
            </form>
          )
        }
      </AsyncView>
      {session?.mode === 'person' && settings.data && (
        <RequireTwoFactor settings={settings.data} onSaved={savedSettings} />
      )}
    </section>
  );
}
