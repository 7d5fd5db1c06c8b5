import type { ReactNode } from 'react';
import { ApiError } from '../api/client.ts';

/** What a view shows of one query (a TanStack Query result): its data, kept while it is read again, and its error. */
export interface QueryState<T> {
  data: T | undefined;
  error: Error | null;
  /** Reads it again (the view's "Try again"). */
  refetch: () => unknown;
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/**
 * Whether reading again can help: when the server could not be reached, failed (5xx), or asked to wait (408, 429). Any
 * other refusal (a missing contact, an invalid field) answers the same way however often it is asked.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status >= 500 || error.status === 408 || error.status === 429;
}

/**
 * An error as the user should read it: the API's message and the fields it names. Its status and code stay out of the
 * text (a tooltip and `data-status` carry them); "Try again" shows only where trying again can help.
 */
export function ErrorMessage({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  const api = error instanceof ApiError ? error : null;
  const fields = api ? api.fields : [];
  return (
    <div
      className="state state-error"
      role="alert"
      data-status={api?.status || undefined}
      title={api?.status ? `${api.code} (HTTP ${api.status})` : undefined}
    >
      <p>{message}</p>
      {fields.length > 1 && (
        <ul>
          {fields.map((f) => (
            <li key={`${f.field}:${f.message}`}>
              <code>{f.field}</code>: {f.message}
            </li>
          ))}
        </ul>
      )}
      {onRetry && isRetryable(error) && (
        <button type="button" className="secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state state-empty">{children}</div>;
}

interface ViewProps<T> {
  state: QueryState<T>;
  /** Whether loaded data counts as empty (shows `empty`). */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

/** Loading, error, empty or the content, for one query. */
export function AsyncView<T>({ state, isEmpty, empty, children }: ViewProps<T>) {
  const retry = () => void state.refetch();
  if (state.error && state.data === undefined) return <ErrorMessage error={state.error} onRetry={retry} />;
  if (state.data === undefined) return <Loading />;
  return (
    <>
      {state.error && <ErrorMessage error={state.error} onRetry={retry} />}
      {isEmpty?.(state.data) ? <Empty>{empty}</Empty> : children(state.data)}
    </>
  );
}
