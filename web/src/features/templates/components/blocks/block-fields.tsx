import { useId, type ReactNode } from 'react';
import { FieldProblem, useInvalid } from '../field-errors.tsx';

// The controls of the block settings: each labelled, with the problem the API names for its `path` under it.

interface FieldProps<T> {
  label: string;
  /** The field's name in the API's errors: `content.blocks[2].url`. */
  path: string;
  value: T;
  onChange: (value: T) => void;
  hint?: ReactNode;
}

function Field({
  id,
  label,
  path,
  hint,
  children,
}: {
  id: string;
  label: string;
  path: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <p className="hint">{hint}</p>}
      <FieldProblem path={path} id={`${id}-problem`} />
    </div>
  );
}

export function TextField({ type = 'text', ...props }: FieldProps<string> & { type?: 'text' | 'url' }) {
  const id = useId();
  const invalid = useInvalid(props.path, `${id}-problem`);
  return (
    <Field id={id} {...props}>
      <input id={id} type={type} value={props.value} onChange={(e) => props.onChange(e.target.value)} {...invalid} />
    </Field>
  );
}

export function TextAreaField({ rows = 5, ...props }: FieldProps<string> & { rows?: number }) {
  const id = useId();
  const invalid = useInvalid(props.path, `${id}-problem`);
  return (
    <Field id={id} {...props}>
      <textarea
        id={id}
        className="code"
        rows={rows}
        spellCheck={false}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        {...invalid}
      />
    </Field>
  );
}

/** A number; an empty field gives NaN for a required value (the server names it), undefined for an optional one. */
export function NumberField<T extends number | undefined>({
  min,
  max,
  ...props
}: FieldProps<T> & { min: number; max: number }) {
  const id = useId();
  const invalid = useInvalid(props.path, `${id}-problem`);
  const shown = props.value === undefined || Number.isNaN(props.value) ? '' : props.value;
  return (
    <Field id={id} {...props}>
      <input
        id={id}
        type="number"
        min={min}
        max={max}
        value={shown}
        onChange={(e) => props.onChange((e.target.value === '' ? undefined : Number(e.target.value)) as T)}
        {...invalid}
      />
    </Field>
  );
}

export function SelectField<T extends string>({
  options,
  ...props
}: FieldProps<T> & { options: readonly (readonly [T, string])[] }) {
  const id = useId();
  const invalid = useInvalid(props.path, `${id}-problem`);
  return (
    <Field id={id} {...props}>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value as T)} {...invalid}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );
}

const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** `#abc` as the colour picker takes it: `#aabbcc`. */
const sixDigits = (c: string) => (c.length === 4 ? `#${[...c.slice(1)].map((x) => x + x).join('')}` : c);

/** A colour as text (#rgb or #rrggbb; empty: the default) with a picker beside it. */
export function ColorField(props: FieldProps<string | undefined>) {
  const id = useId();
  const invalid = useInvalid(props.path, `${id}-problem`);
  const value = props.value ?? '';
  const valid = COLOR.test(value);
  return (
    <Field id={id} {...props} hint={value && !valid ? 'A colour is #rgb or #rrggbb.' : props.hint}>
      <div className="color-field">
        <input
          id={id}
          value={value}
          placeholder="default"
          onChange={(e) => props.onChange(e.target.value.trim() === '' ? undefined : e.target.value.trim())}
          {...invalid}
        />
        <input
          type="color"
          aria-label={`${props.label}: pick`}
          value={valid ? sixDigits(value) : '#000000'}
          onChange={(e) => props.onChange(e.target.value)}
        />
      </div>
    </Field>
  );
}

export const ALIGN_OPTIONS = [
  ['left', 'Left'],
  ['center', 'Centre'],
  ['right', 'Right'],
] as const;
