import { useId, useState } from 'react';
import type { Filter, Segment, Topic } from '../api/types.ts';
import { JsonField } from '../ui/json-field.tsx';
import {
  ACTIVITIES,
  ACTIVITY_LABELS,
  ENGAGEMENT_LEVELS,
  FIELD_OPERATORS,
  NO_VALUE,
  OPERATOR_LABELS,
  fieldClass,
  groupChildren,
  groupMode,
  kindOf,
  negated,
  newCondition,
  textToValue,
  valueToText,
  type ConditionKind,
} from './filter-model.ts';

export interface FilterContext {
  segments: Segment[];
  /** Campaigns an email-activity condition can be narrowed to, by name. */
  campaigns: { id: string; name: string }[];
  eventNames: string[];
  /** Topics a topic condition can name. */
  topics: Topic[];
  /** The segment being edited: it cannot refer to itself. */
  selfId?: string;
}

function Hidden({ children }: { children: string }) {
  return <span className="visually-hidden">{children}</span>;
}

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: [string, string][];
  onChange: (v: string) => void;
}) {
  return (
    <label className="inline">
      <Hidden>{label}</Hidden>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

function Text({
  label,
  value,
  onChange,
  placeholder,
  list,
  width,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  list?: string;
  width?: string;
}) {
  return (
    <label className="inline">
      <Hidden>{label}</Hidden>
      <input
        value={value}
        placeholder={placeholder}
        list={list}
        style={width ? { width } : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

const ops = (names: readonly string[]): [string, string][] => names.map((n) => [n, OPERATOR_LABELS[n] ?? n]);

function FieldCondition({ cond, onChange }: { cond: Filter; onChange: (f: Filter) => void }) {
  const field = String(cond.field ?? 'email');
  const isData = field.startsWith('data.');
  const operator = String(cond.operator ?? 'equals');
  // What was typed, while it still says the condition's value: rows are keyed by position, so when the value changes
  // under this row (a row above removed), the row shows the new one.
  const [typed, setTyped] = useState(valueToText(cond.value));
  const says = JSON.stringify(textToValue(typed, field, operator)) === JSON.stringify(cond.value);
  const text = says ? typed : valueToText(cond.value);
  // Another field starts afresh: its first operator and no value (an old value rarely means anything there).
  const setField = (next: string) => {
    const op = FIELD_OPERATORS[fieldClass(next)][0];
    setTyped(next === 'subscribed' ? 'true' : '');
    onChange({ field: next, operator: op, value: next === 'subscribed' ? true : '' });
  };
  const setOperator = (op: string) =>
    onChange(NO_VALUE.has(op) ? { field, operator: op } : { field, operator: op, value: textToValue(text, field, op) });
  const setValue = (t: string) => {
    setTyped(t);
    onChange({ field, operator, value: textToValue(t, field, operator) });
  };
  return (
    <>
      <Select
        label="Field"
        value={isData ? 'data' : field}
        onChange={(v) => setField(v === 'data' ? 'data.' : v)}
        options={[
          ['email', 'Email'],
          ['subscribed', 'Subscribed'],
          ['createdAt', 'Created'],
          ['updatedAt', 'Updated'],
          ['data', 'Data field'],
        ]}
      />
      {isData && (
        <Text
          label="Data key"
          value={field.slice(5)}
          placeholder="plan"
          width="8rem"
          onChange={(v) => onChange({ ...cond, field: `data.${v}` })}
        />
      )}
      <Select
        label="Operator"
        value={operator}
        options={ops(FIELD_OPERATORS[fieldClass(field)])}
        onChange={setOperator}
      />
      {field === 'subscribed' ? (
        <Select
          label="Value"
          value={String(cond.value ?? true)}
          options={[
            ['true', 'yes'],
            ['false', 'no'],
          ]}
          onChange={setValue}
        />
      ) : (
        !NO_VALUE.has(operator) && (
          <Text
            label="Value"
            value={text}
            onChange={setValue}
            placeholder={
              operator === 'within' || operator === 'olderThan'
                ? '7d'
                : operator === 'in' || operator === 'notIn'
                  ? 'a, b, c'
                  : fieldClass(field) === 'date'
                    ? '2026-01-31'
                    : 'value'
            }
          />
        )
      )}
    </>
  );
}

function optional(cond: Filter, key: string, value: unknown): Filter {
  const next = { ...cond };
  if (value === '' || value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

function EventCondition({ cond, onChange, ctx }: { cond: Filter; onChange: (f: Filter) => void; ctx: FilterContext }) {
  const count = (cond.count ?? {}) as { gte?: number; lte?: number };
  const setCount = (key: 'gte' | 'lte', text: string) => {
    const next = { ...count, [key]: text === '' ? undefined : Number(text) };
    if (next[key] === undefined) delete next[key];
    onChange(optional(cond, 'count', Object.keys(next).length ? next : undefined));
  };
  const listId = useId();
  return (
    <>
      <Select
        label="Operator"
        value={String(cond.operator)}
        options={ops(['performed', 'notPerformed'])}
        onChange={(v) => onChange({ ...cond, operator: v })}
      />
      <span className="word">the event</span>
      <Text
        label="Event name"
        value={String(cond.event ?? '')}
        placeholder="signed_up"
        list={listId}
        onChange={(v) => onChange({ ...cond, event: v })}
      />
      <datalist id={listId}>
        {ctx.eventNames.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <Text
        label="Within"
        value={String(cond.within ?? '')}
        placeholder="any time (or 30d)"
        width="9rem"
        onChange={(v) => onChange(optional(cond, 'within', v.trim()))}
      />
      {cond.operator === 'performed' && (
        <>
          <Text
            label="At least (times)"
            value={count.gte === undefined ? '' : String(count.gte)}
            placeholder="min ×"
            width="5rem"
            onChange={(v) => setCount('gte', v)}
          />
          <Text
            label="At most (times)"
            value={count.lte === undefined ? '' : String(count.lte)}
            placeholder="max ×"
            width="5rem"
            onChange={(v) => setCount('lte', v)}
          />
        </>
      )}
    </>
  );
}

function ActivityCondition({
  cond,
  onChange,
  ctx,
}: {
  cond: Filter;
  onChange: (f: Filter) => void;
  ctx: FilterContext;
}) {
  const campaignId = String(cond.campaignId ?? '');
  const campaigns: [string, string][] = [
    ['', 'any email'],
    ...ctx.campaigns.map((c): [string, string] => [c.id, `campaign “${c.name}”`]),
  ];
  // A campaign named in the filter but not among the choices (deleted, or past the first 100) stays selectable.
  if (campaignId && !ctx.campaigns.some((c) => c.id === campaignId))
    campaigns.push([campaignId, `campaign ${campaignId}`]);
  return (
    <>
      <Select
        label="Operator"
        value={String(cond.operator)}
        options={[
          ['performed', 'has'],
          ['notPerformed', 'has not'],
        ]}
        onChange={(v) => onChange({ ...cond, operator: v })}
      />
      <Select
        label="Email activity"
        value={String(cond.activity)}
        options={ACTIVITIES.map((a) => [a, ACTIVITY_LABELS[a]])}
        onChange={(v) => onChange({ ...cond, activity: v })}
      />
      <span className="word">from</span>
      <Select
        label="Campaign"
        value={campaignId}
        options={campaigns}
        onChange={(v) => onChange(optional(cond, 'campaignId', v))}
      />
      <span className="word">within</span>
      <Text
        label="Within"
        value={String(cond.within ?? '')}
        placeholder="any time (or 30d)"
        width="9rem"
        onChange={(v) => onChange(optional(cond, 'within', v.trim()))}
      />
    </>
  );
}

function SegmentCondition({
  cond,
  onChange,
  ctx,
}: {
  cond: Filter;
  onChange: (f: Filter) => void;
  ctx: FilterContext;
}) {
  const options: [string, string][] = [
    ['', 'Choose a segment…'],
    ...ctx.segments.filter((s) => s.id !== ctx.selfId).map((s): [string, string] => [s.id, s.name]),
  ];
  return (
    <>
      <Select
        label="Operator"
        value={String(cond.operator)}
        options={ops(['member', 'notMember'])}
        onChange={(v) => onChange({ ...cond, operator: v })}
      />
      <Select
        label="Segment"
        value={String(cond.segment ?? '')}
        options={options}
        onChange={(v) => onChange({ ...cond, segment: v })}
      />
    </>
  );
}

function TopicCondition({ cond, onChange, ctx }: { cond: Filter; onChange: (f: Filter) => void; ctx: FilterContext }) {
  const topicId = String(cond.topic ?? '');
  const options: [string, string][] = [
    ['', 'Choose a topic…'],
    ...ctx.topics.map((t): [string, string] => [t.id, t.name]),
  ];
  // A topic named in the filter but not among the choices (deleted, or past the first 100) stays selectable.
  if (topicId && !ctx.topics.some((t) => t.id === topicId)) options.push([topicId, `topic ${topicId}`]);
  return (
    <>
      <Select
        label="Operator"
        value={String(cond.operator)}
        options={ops(['subscribed', 'notSubscribed'])}
        onChange={(v) => onChange({ ...cond, operator: v })}
      />
      <span className="word">the topic</span>
      <Select label="Topic" value={topicId} options={options} onChange={(v) => onChange({ ...cond, topic: v })} />
    </>
  );
}

function EngagementCondition({ cond, onChange }: { cond: Filter; onChange: (f: Filter) => void }) {
  return (
    <>
      <span className="word">is</span>
      <Select
        label="Engagement level"
        value={String(cond.engagement)}
        options={ENGAGEMENT_LEVELS}
        onChange={(v) => onChange({ engagement: v })}
      />
    </>
  );
}

function ConditionRow({
  node,
  onChange,
  onRemove,
  ctx,
}: {
  node: Filter;
  onChange: (f: Filter) => void;
  onRemove: () => void;
  ctx: FilterContext;
}) {
  const inner = negated(node);
  const cond = inner ?? node;
  const kind = kindOf(cond);
  const emit = (next: Filter) => onChange(inner ? { not: next } : next);
  return (
    <li className="condition" data-kind={kind}>
      <Select
        label="Condition type"
        value={kind}
        onChange={(k) => emit(newCondition(k as ConditionKind))}
        options={[
          ['field', 'Contact'],
          ['event', 'Event'],
          ['activity', 'Email activity'],
          ['segment', 'Segment'],
          ['topic', 'Topic'],
          ['engagement', 'Engagement'],
        ]}
      />
      {kind === 'field' && <FieldCondition cond={cond} onChange={emit} />}
      {kind === 'event' && <EventCondition cond={cond} onChange={emit} ctx={ctx} />}
      {kind === 'activity' && <ActivityCondition cond={cond} onChange={emit} ctx={ctx} />}
      {kind === 'segment' && <SegmentCondition cond={cond} onChange={emit} ctx={ctx} />}
      {kind === 'topic' && <TopicCondition cond={cond} onChange={emit} ctx={ctx} />}
      {kind === 'engagement' && <EngagementCondition cond={cond} onChange={emit} />}
      <label className="inline check">
        <input
          type="checkbox"
          checked={inner !== null}
          onChange={(e) => onChange(e.target.checked ? { not: cond } : cond)}
        />{' '}
        Not
      </label>
      <button type="button" className="secondary small" onClick={onRemove} aria-label="Remove condition">
        Remove
      </button>
    </li>
  );
}

function GroupEditor({
  group,
  onChange,
  onRemove,
  ctx,
  depth,
}: {
  group: Filter;
  onChange: (f: Filter) => void;
  onRemove?: () => void;
  ctx: FilterContext;
  depth: number;
}) {
  const mode = groupMode(group) ?? 'all';
  const children = groupChildren(group);
  const set = (next: Filter[], nextMode = mode) => onChange({ [nextMode]: next });
  const replace = (i: number, f: Filter) => set(children.map((c, j) => (j === i ? f : c)));
  const remove = (i: number) => set(children.filter((_, j) => j !== i));
  return (
    <div className="filter-group" role="group" aria-label={depth === 0 ? 'Filter' : 'Condition group'}>
      <div className="group-head">
        <Select
          label="Match"
          value={mode}
          options={[
            ['all', 'Match all of'],
            ['any', 'Match any of'],
          ]}
          onChange={(m) => set(children, m as 'all' | 'any')}
        />
        {onRemove && (
          <button type="button" className="secondary small" onClick={onRemove}>
            Remove group
          </button>
        )}
      </div>
      {children.length === 0 && <p className="hint">No conditions: every contact matches.</p>}
      <ul className="conditions">
        {children.map((child, i) =>
          groupMode(child) ? (
            <li key={i} className="nested">
              <GroupEditor
                group={child}
                ctx={ctx}
                depth={depth + 1}
                onChange={(f) => replace(i, f)}
                onRemove={() => remove(i)}
              />
            </li>
          ) : (
            <ConditionRow key={i} node={child} ctx={ctx} onChange={(f) => replace(i, f)} onRemove={() => remove(i)} />
          ),
        )}
      </ul>
      <div className="actions">
        <button type="button" className="secondary small" onClick={() => set([...children, newCondition('field')])}>
          Add condition
        </button>
        {depth < 3 && (
          <button
            type="button"
            className="secondary small"
            onClick={() => set([...children, { any: [newCondition('field')] }])}
          >
            Add group
          </button>
        )}
      </div>
    </div>
  );
}

/** A visual editor of a filter tree, with the JSON beside it for anything the form does not cover. */
export function FilterBuilder({
  value,
  onChange,
  ctx,
}: {
  value: Filter;
  onChange: (f: Filter) => void;
  ctx: FilterContext;
}) {
  const [asJson, setAsJson] = useState(false);
  const root = groupMode(value) ? value : { all: Object.keys(value).length ? [value] : [] };
  return (
    <div className="filter-builder">
      <label className="inline check">
        <input type="checkbox" checked={asJson} onChange={(e) => setAsJson(e.target.checked)} /> Edit as JSON
      </label>
      {asJson ? (
        <JsonField label="Filter (JSON)" value={value} onChange={(v) => onChange(v as Filter)} rows={10} />
      ) : (
        <GroupEditor group={root} ctx={ctx} depth={0} onChange={onChange} />
      )}
    </div>
  );
}
