import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';

export interface AsyncState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Runs the loader again (keeps showing the last data meanwhile). */
  reload: () => void;
  setData: (data: T) => void;
}

/** Runs `load` when `deps` change; answers of superseded runs are dropped. */
export function useAsync<T>(load: () => Promise<T>, deps: DependencyList): AsyncState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const run = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const id = ++run.current;
    setLoading(true);
    loadRef.current().then(
      (value) => {
        if (run.current !== id) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (err: unknown) => {
        if (run.current !== id) return;
        setError(err instanceof Error ? err : new Error(String(err)));
        setLoading(false);
      },
    );
  }, [...deps, tick]);

  useEffect(() => () => {
    run.current++;
  }, []);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload, setData };
}

/** Calls `tick` every `ms` while `active`. */
export function useInterval(tick: () => void, ms: number, active: boolean): void {
  const ref = useRef(tick);
  ref.current = tick;
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => ref.current(), ms);
    return () => window.clearInterval(timer);
  }, [ms, active]);
}
