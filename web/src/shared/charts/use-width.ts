import { useLayoutEffect, useRef, useState } from 'react';

/** The width the element is laid out at, followed as it changes. */
export function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    setWidth(element.clientWidth || fallback);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth || fallback));
    observer.observe(element);
    return () => observer.disconnect();
  }, [fallback]);
  return [ref, width] as const;
}
