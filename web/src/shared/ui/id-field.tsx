import { CopyButton } from './buttons.tsx';

/** A resource's id, shown in full with a copy button (the API calls that need it: /v1/send's template, …). */
export function IdField({ noun, id }: { noun: string; id: string }) {
  return (
    <p className="id-field">
      <span className="muted">{noun} ID</span>
      <code data-testid="resource-id">{id}</code>
      <CopyButton value={id} label={`${noun} ID`} />
    </p>
  );
}

/** An id in a table: its start, and a copy button for the whole. */
export function ShortId({ noun, id }: { noun: string; id: string }) {
  return (
    <span className="short-id">
      <code title={id}>{id.slice(0, 8)}…</code>
      <CopyButton value={id} label={`${noun} ID ${id}`} />
    </span>
  );
}
