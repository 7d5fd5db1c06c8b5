import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../../app/session/session-context.tsx';
import type { Campaign } from '../../../shared/api/types.ts';
import { submitWith } from '../../../shared/forms.ts';
import { formatDateTime, formatDay, toLocalInput } from '../../../shared/format.ts';
import { ErrorMessage } from '../../../shared/ui/async-state.tsx';
import { ConfirmButton } from '../../../shared/ui/buttons.tsx';
import { Link } from '../../../shared/router.tsx';
import { sendCampaign, testCampaign } from '../api.ts';
import { allows } from '../campaign-state.ts';
import { CampaignCheck, useCheckErrors } from './campaign-check.tsx';

/**
 * Send now, schedule (at one time, or at each recipient's local time), or send a test of a saved campaign, as its
 * state allows.
 */
export function CampaignSend({ campaign, onChanged }: { campaign: Campaign; onChanged: () => void }) {
  const api = useApi();
  const [when, setWhen] = useState(() => toLocalInput(new Date(Date.now() + 60 * 60 * 1000)));
  const [mode, setMode] = useState<'once' | 'local' | 'optimize'>(campaign.sendAt ? 'local' : 'once');
  const [within, setWithin] = useState('24h');
  const [holdout, setHoldout] = useState('10');
  const [localTime, setLocalTime] = useState(campaign.sendAt?.localTime ?? '09:00');
  const [localDate, setLocalDate] = useState(
    () => campaign.sendAt?.date ?? toLocalInput(new Date(Date.now() + 86_400_000)).slice(0, 10),
  );
  const [testTo, setTestTo] = useState('');
  const [tested, setTested] = useState<{ email: string; to: string; status: string }[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [force, setForce] = useState(false);
  const checkErrors = useCheckErrors(campaign);
  const forced = checkErrors && force ? { force: true } : {};
  const sendNow = useMutation({
    mutationFn: () => sendCampaign(api, campaign.id, forced),
    onSuccess: () => onChanged(),
  });
  const schedule = useMutation({
    mutationFn: () =>
      sendCampaign(
        api,
        campaign.id,
        mode === 'local'
          ? { sendAt: { localTime, date: localDate }, ...forced }
          : mode === 'optimize'
            ? { sendAt: { optimize: { within }, holdoutPercent: Number(holdout) }, ...forced }
            : { scheduledFor: new Date(when).toISOString(), ...forced },
      ),
    onSuccess: () => onChanged(),
  });
  const test = useMutation({
    mutationFn: () => testCampaign(api, campaign.id, [testTo]),
    onSuccess: (result) => setTested(result.emails),
  });
  const submitSchedule = submitWith(() => setConfirming(true));
  const submitTest = submitWith(() => test.mutate());
  const count = campaign.recipientCount;
  const none = count === 0;
  const contacts = `contact${count === 1 ? '' : 's'}`;
  return (
    <section className="panel" aria-labelledby="send-title">
      <h2 id="send-title">Send</h2>
      {campaign.status === 'SCHEDULED' && (
        <p>
          Scheduled for{' '}
          <strong data-testid="scheduled-at">
            {campaign.sendAt
              ? `${campaign.sendAt.localTime} on ${formatDay(campaign.sendAt.date)}, each recipient’s local time`
              : formatDateTime(campaign.scheduledAt)}
          </strong>
          . Scheduling again replaces the time; Unschedule makes it a draft again.
        </p>
      )}
      <p>
        This campaign goes to <strong>{count}</strong> subscribed {contacts} now.
      </p>
      {allows(campaign, 'send') && (
        <>
          <CampaignCheck campaign={campaign} />
          {checkErrors && (
            <label className="check">
              <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Send despite the
              check’s errors
            </label>
          )}
          <div className="actions">
            <ConfirmButton
              label="Send now"
              confirmLabel={`Send to ${count} now`}
              onConfirm={() => sendNow.mutate()}
              disabled={sendNow.isPending || none || (checkErrors && !force)}
            />
          </div>
          {sendNow.error !== null && <ErrorMessage error={sendNow.error} />}
          <form className="inline-form" onSubmit={submitSchedule} aria-label="Schedule">
            <div className="field">
              <label htmlFor="c-mode">Deliver</label>
              <select
                id="c-mode"
                value={mode}
                onChange={(e) => {
                  setMode(e.target.value as 'once' | 'local' | 'optimize');
                  setConfirming(false);
                }}
              >
                <option value="once">At one time</option>
                <option value="local">At local time</option>
                <option value="optimize">At each recipient’s best time</option>
              </select>
            </div>
            {mode === 'optimize' && (
              <>
                <div className="field">
                  <label htmlFor="c-within">Within</label>
                  <select id="c-within" value={within} onChange={(e) => setWithin(e.target.value)}>
                    {['6h', '12h', '24h', '3d', '7d'].map((w) => (
                      <option key={w} value={w}>
                        {w}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="c-holdout">Holdout %</label>
                  <input
                    id="c-holdout"
                    type="number"
                    min={0}
                    max={50}
                    required
                    value={holdout}
                    onChange={(e) => setHoldout(e.target.value)}
                  />
                </div>
              </>
            )}
            {mode === 'optimize' ? null : mode === 'once' ? (
              <div className="field">
                <label htmlFor="c-when">Send at (your time)</label>
                <input
                  id="c-when"
                  type="datetime-local"
                  required
                  value={when}
                  onChange={(e) => setWhen(e.target.value)}
                />
              </div>
            ) : (
              <>
                <div className="field">
                  <label htmlFor="c-local-time">Time</label>
                  <input
                    id="c-local-time"
                    type="time"
                    required
                    value={localTime}
                    onChange={(e) => setLocalTime(e.target.value)}
                  />
                </div>
                <div className="field">
                  <label htmlFor="c-local-date">Date</label>
                  <input
                    id="c-local-date"
                    type="date"
                    required
                    value={localDate}
                    onChange={(e) => setLocalDate(e.target.value)}
                  />
                </div>
              </>
            )}
            <button
              type="submit"
              className="secondary"
              disabled={schedule.isPending || none || confirming || (checkErrors && !force)}
            >
              Schedule
            </button>
            {mode === 'optimize' && (
              <p className="hint">
                Each recipient gets it at the hour they most often open or click (people only, never machines), within
                the window from now; without history at 10:00 their time. The holdout share goes at once, to compare.
              </p>
            )}
            {mode === 'local' && (
              <p className="hint">
                Each recipient gets it at this time in their own time zone (their <code>timezone</code> field, else the
                project’s); where that time has passed, at once.
              </p>
            )}
          </form>
          {confirming && (
            <div
              className="confirm-panel"
              role="alertdialog"
              aria-labelledby="schedule-confirm-title"
              aria-describedby="schedule-confirm-text"
            >
              <h3 id="schedule-confirm-title">Schedule this campaign?</h3>
              <p id="schedule-confirm-text">
                It will be sent{' '}
                {mode === 'optimize' ? (
                  <>
                    at each recipient’s best hour within <strong>{within}</strong> ({holdout} % at once, as a holdout)
                  </>
                ) : mode === 'local' ? (
                  <>
                    at <strong>{localTime}</strong> on <strong>{formatDay(localDate)}</strong> in each recipient’s time
                    zone
                  </>
                ) : (
                  <>
                    on <strong>{formatDateTime(new Date(when).toISOString())}</strong>
                  </>
                )}{' '}
                to the <strong>{count}</strong> subscribed {contacts} its audience then holds ({count} now). You can
                unschedule it until then.
              </p>
              <div className="actions">
                <button
                  type="button"
                  autoFocus
                  disabled={schedule.isPending}
                  onClick={() => {
                    setConfirming(false);
                    schedule.mutate();
                  }}
                >
                  Yes, schedule
                </button>
                <button type="button" className="secondary" onClick={() => setConfirming(false)}>
                  Not yet
                </button>
              </div>
            </div>
          )}
          {schedule.error !== null && <ErrorMessage error={schedule.error} />}
        </>
      )}
      {allows(campaign, 'test') && (
        <>
          <form className="inline-form" onSubmit={submitTest} aria-label="Send a test">
            <div className="field">
              <label htmlFor="c-test">Test recipient</label>
              <input id="c-test" type="email" required value={testTo} onChange={(e) => setTestTo(e.target.value)} />
            </div>
            <button type="submit" className="secondary" disabled={test.isPending}>
              Send test
            </button>
            <p className="hint">
              An address that is one of your contacts gets the test rendered with that contact’s data.
            </p>
            {tested && (
              <span role="status" className="ok">
                Test{' '}
                {tested.map((e, i) => (
                  <span key={e.email}>
                    {i > 0 && ', '}
                    {e.to}: {e.status.toLowerCase()} (<Link to={`/emails/${e.email}`}>view email</Link>)
                  </span>
                ))}
              </span>
            )}
          </form>
          {test.error !== null && <ErrorMessage error={test.error} />}
        </>
      )}
    </section>
  );
}
