import type { DraftField, FieldType } from './form-model.ts';
import { newField } from './form-model.ts';

const TYPES: FieldType[] = ['email', 'text', 'checkbox', 'select'];

/** A form's fields in order (key, label, type, required, a select's options): add, move and remove them. */
export function FieldEditor({
  fields,
  onChange,
  readOnly,
}: {
  fields: DraftField[];
  onChange: (fields: DraftField[]) => void;
  readOnly: boolean;
}) {
  const update = (uid: number, patch: Partial<DraftField>) =>
    onChange(fields.map((f) => (f.uid === uid ? { ...f, ...patch } : f)));
  const move = (index: number, by: number) => {
    const next = [...fields];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    onChange(next);
  };
  const add = () => onChange([...fields, newField('text', `field${fields.length + 1}`, 'New field')]);
  return (
    <fieldset className="form-fields">
      <legend>Fields</legend>
      <p className="hint">
        Exactly one email field. A new contact gets the other fields in its data, under their keys.
      </p>
      <ol className="form-field-list">
        {fields.map((f, i) => (
          <li key={f.uid} aria-label={`Field ${i + 1}`}>
            <div className="grid-2">
              <div className="field">
                <label htmlFor={`label-${f.uid}`}>Label</label>
                <input
                  id={`label-${f.uid}`}
                  value={f.label}
                  required
                  maxLength={200}
                  onChange={(e) => update(f.uid, { label: e.target.value })}
                />
              </div>
              <div className="field">
                <label htmlFor={`key-${f.uid}`}>Key</label>
                <input
                  id={`key-${f.uid}`}
                  value={f.key}
                  required
                  pattern="[A-Za-z][A-Za-z0-9_]{0,63}"
                  onChange={(e) => update(f.uid, { key: e.target.value })}
                />
              </div>
              <div className="field">
                <label htmlFor={`type-${f.uid}`}>Type</label>
                <select
                  id={`type-${f.uid}`}
                  value={f.type}
                  onChange={(e) => update(f.uid, { type: e.target.value as FieldType })}
                >
                  {TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
              </div>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={f.type === 'email' || f.required}
                  disabled={f.type === 'email'}
                  onChange={(e) => update(f.uid, { required: e.target.checked })}
                />{' '}
                Required
              </label>
            </div>
            {f.type === 'select' && (
              <div className="field">
                <label htmlFor={`options-${f.uid}`}>Options (one per line)</label>
                <textarea
                  id={`options-${f.uid}`}
                  rows={3}
                  value={f.options}
                  onChange={(e) => update(f.uid, { options: e.target.value })}
                />
              </div>
            )}
            {!readOnly && (
              <div className="actions">
                <button type="button" className="secondary small" disabled={i === 0} onClick={() => move(i, -1)}>
                  Move up
                </button>
                <button
                  type="button"
                  className="secondary small"
                  disabled={i === fields.length - 1}
                  onClick={() => move(i, 1)}
                >
                  Move down
                </button>
                <button
                  type="button"
                  className="secondary small"
                  onClick={() => onChange(fields.filter((x) => x.uid !== f.uid))}
                >
                  Remove field
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
      {!readOnly && (
        <button type="button" className="secondary" onClick={add}>
          Add field
        </button>
      )}
    </fieldset>
  );
}
