import { useCallback, useState, type FormEvent } from 'react';

/** A user action in flight: `busy` disables its button, `error` is shown next to it. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<unknown>): {
  run: (...args: A) => Promise<boolean>;
  busy: boolean;
  error: unknown;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await action(...args);
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  }, [action]);
  return { run, busy, error, clear: useCallback(() => setError(null), []) };
}

/** A form's onSubmit that runs `run` instead of reloading the page. */
export function submitWith(run: () => unknown): (event: FormEvent) => void {
  return (event) => {
    event.preventDefault();
    void run();
  };
}
