import type { Draft } from './form-model.ts';
import { optionsOf } from './form-model.ts';

/**
 * The hosted page as the draft stands (before saving): its fields in order, the widget's place, the consent text
 * and the button. React renders the labels as text, as the page escapes them.
 */
export function FormPreview({ draft }: { draft: Draft }) {
  return (
    <section className="panel form-preview" aria-label="Preview">
      <h2>Preview</h2>
      <div className="form-preview-page">
        <h3>{draft.name || 'Untitled form'}</h3>
        {draft.fields.map((f) =>
          f.type === 'checkbox' ? (
            <p key={f.uid}>
              <label>
                <input type="checkbox" disabled /> {f.label}
              </label>
            </p>
          ) : (
            <p key={f.uid} className="field">
              <label>
                {f.label}
                {f.required ? ' *' : ''}
              </label>
              {f.type === 'select' ? (
                <select disabled>
                  <option>Choose…</option>
                  {optionsOf(f).map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              ) : (
                <input type={f.type === 'email' ? 'email' : 'text'} disabled />
              )}
            </p>
          ),
        )}
        {draft.captcha === 'pow' && <p className="hint">☐ I'm not a robot (proof of work, solved in the browser)</p>}
        {draft.consentText && <p className="hint">{draft.consentText}</p>}
        <button type="button" disabled>
          Subscribe
        </button>
      </div>
    </section>
  );
}
