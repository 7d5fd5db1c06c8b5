import type { ReactNode } from 'react';

/**
 * Fields shown but not editable, for a role that may only read them: inside a disabled fieldset (no border, no
 * room of its own), every control is disabled at once and the values stay readable.
 */
export function ReadOnly({ when, children }: { when: boolean; children: ReactNode }) {
  if (!when) return <>{children}</>;
  return (
    <fieldset className="read-only" disabled>
      {children}
    </fieldset>
  );
}
