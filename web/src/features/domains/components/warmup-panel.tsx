import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import type { Domain, DomainWarmup } from '../../../shared/api/types.ts';
import { RampChart } from '../../../shared/charts/ramp-chart.tsx';
import { formatDay } from '../../../shared/format.ts';
import { submitWith } from '../../../shared/forms.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { setWarmup } from '../api.ts';
import { DEFAULT_WARMUP_SCHEDULE, isDefaultSchedule, parseSchedule, rampDays } from '../warmup-model.ts';

const count = (n: number) => n.toLocaleString();

const DEFAULT_SUMMARY =
  `Default: ${DEFAULT_WARMUP_SCHEDULE.slice(0, 3).map(count).join(', ')} … ` +
  `${count(DEFAULT_WARMUP_SCHEDULE.at(-1)!)} over ${DEFAULT_WARMUP_SCHEDULE.length} days, then no cap`;

/** Where a running warm-up is today: its day, today's cap and what went today. */
function WarmupToday({ warmup }: { warmup: DomainWarmup }) {
  const past = warmup.day !== null && warmup.day > warmup.schedule.length;
  return (
    <>
      <dl className="cards small" aria-label="Warm-up today">
        <div>
          <dt>Day</dt>
          <dd data-testid="warmup-day">
            {warmup.day} <span className="muted">of {warmup.schedule.length}</span>
          </dd>
        </div>
        <div>
          <dt>Today&rsquo;s cap</dt>
          <dd data-testid="warmup-cap">{warmup.cap === null ? 'No cap' : count(warmup.cap)}</dd>
        </div>
        <div>
          <dt>Sent today</dt>
          <dd data-testid="warmup-sent">{count(warmup.sentToday)}</dd>
        </div>
      </dl>
      <p className="hint">
        Day 1 was {formatDay(warmup.startedOn)} (days are UTC days).
        {past && ' The schedule is over: the domain sends without a cap.'}
      </p>
    </>
  );
}

/**
 * The domain's warm-up: a cap on its mail per day that grows by a schedule (the default one or the project's own),
 * where it is today, and its ramp as a chart.
 */
export function WarmupPanel({ domain, onSaved }: { domain: Domain; onSaved: (domain: Domain) => void }) {
  const api = useApi();
  const warmup = domain.warmup;
  const [enabled, setEnabled] = useState(warmup?.enabled ?? false);
  const [custom, setCustom] = useState(warmup ? !isDefaultSchedule(warmup.schedule) : false);
  const [typed, setTyped] = useState(warmup && custom ? warmup.schedule.join(', ') : '');
  const parsed = custom ? parseSchedule(typed) : { caps: [...DEFAULT_WARMUP_SCHEDULE] };
  const problem = enabled && 'problem' in parsed ? parsed.problem : null;
  const save = useMutation({
    mutationFn: () =>
      setWarmup(api, domain.id, enabled && 'caps' in parsed ? { enabled, schedule: parsed.caps } : { enabled: false }),
    onSuccess: onSaved,
  });
  return (
    <section className="panel" aria-labelledby="warmup-title">
      <h2 id="warmup-title">Warm-up</h2>
      <p className="hint">
        A new domain earns the providers&rsquo; trust by sending a little more each day. While it warms up, marketing
        over the day&rsquo;s cap waits for the next day; transactional mail is never held, but counts.
      </p>
      {warmup?.enabled && <WarmupToday warmup={warmup} />}
      <form onSubmit={submitWith(() => save.mutate())} aria-label="Warm-up">
        <label className="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Warm up{' '}
          {domain.domain}
        </label>
        {enabled && (
          <fieldset>
            <legend>Schedule</legend>
            <label className="check">
              <input type="radio" name="warmup-schedule" checked={!custom} onChange={() => setCustom(false)} />{' '}
              {DEFAULT_SUMMARY}
            </label>
            <label className="check">
              <input type="radio" name="warmup-schedule" checked={custom} onChange={() => setCustom(true)} /> My own
            </label>
            {custom && (
              <div className="field">
                <label htmlFor="warmup-caps">Cap per day, day 1 first</label>
                <textarea
                  id="warmup-caps"
                  rows={2}
                  placeholder="50, 100, 250, 500"
                  value={typed}
                  aria-invalid={problem !== null}
                  aria-describedby="warmup-caps-note"
                  onChange={(e) => setTyped(e.target.value)}
                />
                <p id="warmup-caps-note" className={problem ? 'field-error' : 'hint'}>
                  {problem ?? 'Whole numbers separated by commas, each at least the day before’s; then no cap.'}
                </p>
              </div>
            )}
            {warmup?.enabled && (
              <p className="hint">Day 1 stays {formatDay(warmup.startedOn)}: a new schedule applies from today.</p>
            )}
          </fieldset>
        )}
        <button type="submit" disabled={save.isPending || problem !== null}>
          Save warm-up
        </button>
        {save.error !== null && <ErrorMessage error={save.error} />}
      </form>
      {warmup?.enabled && (
        <RampChart
          title="Warm-up ramp: cap per day"
          days={rampDays(warmup)}
          today={warmup.day !== null && warmup.day <= warmup.schedule.length ? warmup.day : null}
        />
      )}
    </section>
  );
}
