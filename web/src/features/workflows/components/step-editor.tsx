import { useId, useState } from 'react';
import type { Template } from '../../../shared/api/types.ts';
import { FilterBuilder, type FilterContext } from '../../../shared/filter-builder/filter-builder.tsx';
import { JsonField } from '../../../shared/ui/json-field.tsx';
import type { Step, StepType } from '../steps.ts';

export const STEP_LABELS: Record<StepType, string> = {
  SEND_EMAIL: 'Send email',
  DELAY: 'Wait',
  WAIT_FOR_EVENT: 'Wait for event',
  CONDITION: 'If / else',
  UPDATE_CONTACT: 'Update contact',
  WEBHOOK: 'Call webhook',
  EXIT: 'Exit',
};

/** A new step of a type, with the branches it needs. */
export function newStep(type: StepType): Step {
  switch (type) {
    case 'SEND_EMAIL':
      return { type, templateId: '' };
    case 'DELAY':
      return { type, duration: '1d' };
    case 'WAIT_FOR_EVENT':
      return { type, event: '', timeout: '3d', onEvent: [], onTimeout: [] };
    case 'CONDITION':
      return { type, if: { all: [{ field: 'subscribed', operator: 'equals', value: true }] }, then: [], else: [] };
    case 'UPDATE_CONTACT':
      return { type, data: {} };
    case 'WEBHOOK':
      return { type, url: 'https://', method: 'POST' };
    case 'EXIT':
      return { type };
  }
}

interface Env {
  templates: Template[];
  ctx: FilterContext;
}

function Input({
  label,
  value,
  onChange,
  placeholder,
  type = 'text',
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  type?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        placeholder={placeholder}
        required
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

function Branch({
  title,
  steps,
  onChange,
  env,
  depth,
}: {
  title: string;
  steps: Step[] | undefined;
  onChange: (s: Step[]) => void;
  env: Env;
  depth: number;
}) {
  return (
    <div className="branch">
      <h4>{title}</h4>
      <StepList steps={steps ?? []} onChange={onChange} env={env} depth={depth + 1} />
    </div>
  );
}

function StepFields({
  step,
  onChange,
  env,
  depth,
}: {
  step: Step;
  onChange: (s: Step) => void;
  env: Env;
  depth: number;
}) {
  const id = useId();
  switch (step.type) {
    case 'SEND_EMAIL':
      return (
        <div className="field">
          <label htmlFor={id}>Template</label>
          <select
            id={id}
            required
            value={step.templateId}
            onChange={(e) => onChange({ ...step, templateId: e.target.value })}
          >
            <option value="">Choose a template…</option>
            {env.templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.type.toLowerCase()})
              </option>
            ))}
          </select>
        </div>
      );
    case 'DELAY':
      return (
        <Input
          label="Duration"
          value={step.duration}
          placeholder="30m, 12h, 2d, 1w"
          onChange={(duration) => onChange({ ...step, duration })}
        />
      );
    case 'WAIT_FOR_EVENT':
      return (
        <>
          <div className="grid-2">
            <Input
              label="Event"
              value={step.event}
              placeholder="purchased"
              onChange={(event) => onChange({ ...step, event })}
            />
            <Input
              label="Give up after"
              value={step.timeout}
              placeholder="3d"
              onChange={(timeout) => onChange({ ...step, timeout })}
            />
          </div>
          <Branch
            title="When the event comes"
            steps={step.onEvent}
            env={env}
            depth={depth}
            onChange={(onEvent) => onChange({ ...step, onEvent })}
          />
          <Branch
            title="On time-out"
            steps={step.onTimeout}
            env={env}
            depth={depth}
            onChange={(onTimeout) => onChange({ ...step, onTimeout })}
          />
        </>
      );
    case 'CONDITION':
      return (
        <>
          <FilterBuilder value={step.if} ctx={env.ctx} onChange={(f) => onChange({ ...step, if: f })} />
          <Branch
            title="Then"
            steps={step.then}
            env={env}
            depth={depth}
            onChange={(then) => onChange({ ...step, then })}
          />
          <Branch
            title="Else"
            steps={step.else}
            env={env}
            depth={depth}
            onChange={(otherwise) => onChange({ ...step, else: otherwise })}
          />
        </>
      );
    case 'UPDATE_CONTACT':
      return (
        <>
          <div className="field">
            <label htmlFor={id}>Subscription</label>
            <select
              id={id}
              value={step.subscribed === undefined ? '' : String(step.subscribed)}
              onChange={(e) => {
                const { subscribed: _drop, ...rest } = step;
                onChange(e.target.value === '' ? rest : { ...rest, subscribed: e.target.value === 'true' });
              }}
            >
              <option value="">Leave as it is</option>
              <option value="true">Subscribe</option>
              <option value="false">Unsubscribe</option>
            </select>
          </div>
          <JsonField
            label="Data to merge into the contact"
            value={step.data ?? {}}
            rows={3}
            onChange={(data) => onChange({ ...step, data })}
          />
        </>
      );
    case 'WEBHOOK':
      return (
        <div className="grid-2">
          <Input label="URL" type="url" value={step.url} onChange={(url) => onChange({ ...step, url })} />
          <div className="field">
            <label htmlFor={id}>Method</label>
            <select
              id={id}
              value={step.method ?? 'POST'}
              onChange={(e) => onChange({ ...step, method: e.target.value })}
            >
              {['POST', 'PUT', 'PATCH', 'GET', 'DELETE'].map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </div>
        </div>
      );
    case 'EXIT':
      return <p className="hint">Ends the execution here.</p>;
  }
}

function StepCard({
  step,
  index,
  count,
  onChange,
  onMove,
  onRemove,
  env,
  depth,
}: {
  step: Step;
  index: number;
  count: number;
  onChange: (s: Step) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
  env: Env;
  depth: number;
}) {
  return (
    <li className="step" data-type={step.type}>
      <div className="step-head">
        <h3>
          <span className="step-number">{index + 1}</span> {STEP_LABELS[step.type]}
        </h3>
        <div className="actions">
          <button
            type="button"
            className="secondary small"
            disabled={index === 0}
            onClick={() => onMove(-1)}
            aria-label={`Move step ${index + 1} up`}
          >
            ↑
          </button>
          <button
            type="button"
            className="secondary small"
            disabled={index === count - 1}
            onClick={() => onMove(1)}
            aria-label={`Move step ${index + 1} down`}
          >
            ↓
          </button>
          <button type="button" className="secondary small" onClick={onRemove} aria-label={`Remove step ${index + 1}`}>
            Remove
          </button>
        </div>
      </div>
      <StepFields step={step} onChange={onChange} env={env} depth={depth} />
    </li>
  );
}

/** The tree of a workflow's steps: each list can grow, shrink and be reordered; branches nest. */
export function StepList({
  steps,
  onChange,
  env,
  depth = 0,
}: {
  steps: Step[];
  onChange: (s: Step[]) => void;
  env: Env;
  depth?: number;
}) {
  const id = useId();
  const [type, setType] = useState<StepType>(depth === 0 ? 'SEND_EMAIL' : 'EXIT');
  const move = (i: number, delta: number) => {
    const next = [...steps];
    const [item] = next.splice(i, 1);
    next.splice(i + delta, 0, item!);
    onChange(next);
  };
  return (
    <div className="step-list">
      {steps.length === 0 && <p className="hint">No steps{depth === 0 ? ' yet' : ' in this branch'}.</p>}
      <ol className="steps">
        {steps.map((step, i) => (
          <StepCard
            key={step.id ?? `${i}:${step.type}`}
            step={step}
            index={i}
            count={steps.length}
            env={env}
            depth={depth}
            onChange={(s) => onChange(steps.map((x, j) => (j === i ? s : x)))}
            onMove={(d) => move(i, d)}
            onRemove={() => onChange(steps.filter((_, j) => j !== i))}
          />
        ))}
      </ol>
      <div className="inline-form add-step">
        <div className="field">
          <label htmlFor={id}>New step</label>
          <select id={id} value={type} onChange={(e) => setType(e.target.value as StepType)}>
            {(Object.keys(STEP_LABELS) as StepType[]).map((t) => (
              <option key={t} value={t}>
                {STEP_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="secondary" onClick={() => onChange([...steps, newStep(type)])}>
          Add step
        </button>
      </div>
    </div>
  );
}
