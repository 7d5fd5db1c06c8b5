import { useState } from 'react';
import type { Segment } from '../../../shared/api/types.ts';
import { Link } from '../../../shared/router.tsx';
import type { Trigger, TriggerType } from '../steps.ts';

const TRIGGER_CHOICES: [TriggerType, string][] = [
  ['EVENT', 'When a contact performs an event'],
  ['SEGMENT_ENTERED', 'When a contact enters a segment'],
  ['SEGMENT_EXITED', 'When a contact leaves a segment'],
  ['MANUAL', 'Started by hand (or by the API)'],
];

/** How the workflows list names a trigger; `segmentName` finds a segment's name by id (undefined while unknown). */
export function triggerText(trigger: Trigger, segmentName: (id: string) => string | undefined): string {
  switch (trigger.type) {
    case 'EVENT':
      return `event “${trigger.event}”`;
    case 'MANUAL':
      return 'started by hand';
    default: {
      const name = segmentName(trigger.segmentId);
      const segment = name === undefined ? 'a segment' : `segment “${name}”`;
      return `${trigger.type === 'SEGMENT_ENTERED' ? 'enters' : 'leaves'} ${segment}`;
    }
  }
}

/** Whether two triggers start the same way (a save sends the trigger only when this is false). */
export function sameTrigger(a: Trigger, b: Trigger): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'EVENT' && b.type === 'EVENT') return a.event === b.event;
  if ('segmentId' in a && 'segmentId' in b) return a.segmentId === b.segmentId;
  return true;
}

function SegmentPicker({
  segmentId,
  segments,
  onChange,
}: {
  segmentId: string;
  segments: Segment[];
  onChange: (id: string) => void;
}) {
  const tracked = segments.filter((s) => s.trackMembership);
  const chosen = segments.find((s) => s.id === segmentId);
  const options: [string, string][] = [
    ['', 'Choose a segment…'],
    ...tracked.map((s): [string, string] => [s.id, s.name]),
  ];
  // A segment already chosen that is not offered (tracking turned off since, or past the first 100) stays selected.
  if (segmentId && !tracked.some((s) => s.id === segmentId))
    options.push([segmentId, chosen ? `${chosen.name} (not tracked)` : `segment ${segmentId}`]);
  return (
    <div className="field">
      <label htmlFor="w-segment">Segment</label>
      <select id="w-segment" required value={segmentId} onChange={(e) => onChange(e.target.value)}>
        {options.map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </select>
      {chosen && !chosen.trackMembership ? (
        <p className="field-error" role="alert" data-testid="untracked-segment">
          “{chosen.name}” does not track entries and exits, so this workflow never starts. Turn on “Track entries and
          exits” on <Link to={`/segments/${chosen.id}`}>the segment’s page</Link>.
        </p>
      ) : (
        <p className="hint">
          {tracked.length === 0
            ? 'No segment tracks entries and exits yet. '
            : 'Only segments that track entries and exits are listed. '}
          Turn it on with “Track entries and exits” on a <Link to="/segments">segment’s page</Link>.
        </p>
      )}
    </div>
  );
}

/** What starts a workflow: an event, a contact entering or leaving a segment, or a person (or the API). */
export function TriggerFields({
  value,
  onChange,
  eventNames,
  segments,
}: {
  value: Trigger;
  onChange: (t: Trigger) => void;
  eventNames: string[];
  segments: Segment[];
}) {
  // What was typed or picked for each kind stays when switching kinds back and forth.
  const [memo, setMemo] = useState({
    event: value.type === 'EVENT' ? value.event : '',
    segmentId: 'segmentId' in value ? value.segmentId : '',
  });
  const remember = (patch: Partial<typeof memo>) => setMemo((m) => ({ ...m, ...patch }));
  const setType = (type: TriggerType) => {
    if (type === 'EVENT') onChange({ type, event: memo.event });
    else if (type === 'MANUAL') onChange({ type });
    else onChange({ type, segmentId: memo.segmentId });
  };
  return (
    <>
      <div className="field">
        <label htmlFor="w-trigger">Trigger</label>
        <select id="w-trigger" value={value.type} onChange={(e) => setType(e.target.value as TriggerType)}>
          {TRIGGER_CHOICES.map(([type, label]) => (
            <option key={type} value={type}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {value.type === 'EVENT' && (
        <div className="field">
          <label htmlFor="w-event">Event name</label>
          <input
            id="w-event"
            required
            list="w-event-names"
            value={value.event}
            placeholder="signed_up"
            onChange={(e) => {
              remember({ event: e.target.value });
              onChange({ type: 'EVENT', event: e.target.value });
            }}
          />
          <datalist id="w-event-names">
            {eventNames.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        </div>
      )}
      {(value.type === 'SEGMENT_ENTERED' || value.type === 'SEGMENT_EXITED') && (
        <SegmentPicker
          segmentId={value.segmentId}
          segments={segments}
          onChange={(segmentId) => {
            remember({ segmentId });
            onChange({ type: value.type, segmentId });
          }}
        />
      )}
    </>
  );
}
