import type { Campaign } from '../../../shared/api/types.ts';

/** A variant's own subject, body, sender address and sender name: empty keeps the campaign's. */
type VariantFields = { subject: string; body: string; from: string; fromName: string };
export type VariantForm = VariantFields[];
export interface AbForm {
  on: boolean;
  variants: VariantForm;
  testPercent: number;
  metric: 'opens' | 'clicks';
  waitFor: string;
}

const FIELDS: (keyof VariantFields)[] = ['subject', 'body', 'from', 'fromName'];
const blankVariant = (): VariantFields => ({ subject: '', body: '', from: '', fromName: '' });

/** The A/B test part of the campaign form, from the campaign. */
export function toAbForm(c: Campaign): AbForm {
  const variants = (c.variants ?? []).map((v) => ({
    subject: v.subject ?? '',
    body: v.body ?? '',
    from: v.from ?? '',
    fromName: v.fromName ?? '',
  }));
  return {
    on: c.variants !== null,
    variants: variants.length >= 2 ? variants : [{ ...blankVariant(), subject: c.subject }, blankVariant()],
    testPercent: c.abTest?.testPercent ?? 20,
    metric: c.abTest?.metric ?? 'opens',
    waitFor: c.abTest?.waitFor ?? '4h',
  };
}

/** What the API takes: a variant leaves out (empty) what the campaign gives. */
export function toAbBody(f: AbForm) {
  if (!f.on) return { variants: null, abTest: null };
  const variants = f.variants.map((v) => {
    const given: Partial<VariantFields> = {};
    for (const key of FIELDS) if (v[key].trim()) given[key] = v[key];
    return given;
  });
  return { variants, abTest: { testPercent: f.testPercent, metric: f.metric, waitFor: f.waitFor } };
}

const LETTERS = ['A', 'B', 'C', 'D', 'E'];

/**
 * The variants editor: 2–5 versions (sender address and name, subject, body; empty = the campaign's), the test share,
 * metric and wait.
 */
export function CampaignVariants({ value, onChange }: { value: AbForm; onChange: (f: AbForm) => void }) {
  const setVariant = (i: number, key: keyof VariantFields, text: string) =>
    onChange({ ...value, variants: value.variants.map((v, n) => (n === i ? { ...v, [key]: text } : v)) });
  return (
    <fieldset className="audience" aria-label="A/B test">
      <legend>A/B test</legend>
      <label className="check">
        <input type="checkbox" checked={value.on} onChange={(e) => onChange({ ...value, on: e.target.checked })} /> Test
        variants on part of the audience first
      </label>
      {value.on && (
        <>
          <div className="grid-2">
            <div className="field">
              <label htmlFor="ab-percent">Test share (%)</label>
              <input
                id="ab-percent"
                type="number"
                min={5}
                max={50}
                value={value.testPercent}
                onChange={(e) => onChange({ ...value, testPercent: Number(e.target.value) })}
              />
            </div>
            <div className="field">
              <label htmlFor="ab-metric">Winner by</label>
              <select
                id="ab-metric"
                value={value.metric}
                onChange={(e) => onChange({ ...value, metric: e.target.value as AbForm['metric'] })}
              >
                <option value="opens">Human open rate</option>
                <option value="clicks">Human click rate</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="ab-wait">Pick the winner after</label>
              <input
                id="ab-wait"
                value={value.waitFor}
                placeholder="4h"
                onChange={(e) => onChange({ ...value, waitFor: e.target.value })}
              />
            </div>
          </div>
          {value.variants.map((v, i) => (
            <div key={i} className="panel" aria-label={`Variant ${LETTERS[i]}`}>
              <h3>Variant {LETTERS[i]}</h3>
              <div className="grid-2">
                <div className="field">
                  <label htmlFor={`v${i}-from`}>From address</label>
                  <input
                    id={`v${i}-from`}
                    type="email"
                    placeholder="The campaign's"
                    value={v.from}
                    onChange={(e) => setVariant(i, 'from', e.target.value)}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`v${i}-from-name`}>From name</label>
                  <input
                    id={`v${i}-from-name`}
                    placeholder="The campaign's"
                    value={v.fromName}
                    onChange={(e) => setVariant(i, 'fromName', e.target.value)}
                  />
                </div>
              </div>
              <div className="field">
                <label htmlFor={`v${i}-subject`}>Subject</label>
                <input
                  id={`v${i}-subject`}
                  placeholder="The campaign's"
                  value={v.subject}
                  onChange={(e) => setVariant(i, 'subject', e.target.value)}
                />
              </div>
              <div className="field">
                <label htmlFor={`v${i}-body`}>Body</label>
                <textarea
                  id={`v${i}-body`}
                  className="code"
                  rows={3}
                  placeholder="The campaign's"
                  value={v.body}
                  onChange={(e) => setVariant(i, 'body', e.target.value)}
                />
              </div>
            </div>
          ))}
          <div className="actions">
            {value.variants.length < 5 && (
              <button
                type="button"
                className="secondary"
                onClick={() => onChange({ ...value, variants: [...value.variants, blankVariant()] })}
              >
                Add a variant
              </button>
            )}
            {value.variants.length > 2 && (
              <button
                type="button"
                className="secondary"
                onClick={() => onChange({ ...value, variants: value.variants.slice(0, -1) })}
              >
                Remove the last
              </button>
            )}
          </div>
          <p className="hint">A variant's own From address must be on a verified domain, as the campaign's.</p>
          <p className="hint">
            The test share goes out at once, split evenly; after the wait the variant with the best rate among people
            (not Apple's prefetch or link scanners) goes to everyone else.
          </p>
        </>
      )}
    </fieldset>
  );
}
