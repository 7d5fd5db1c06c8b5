import type { FormEvent } from 'react';

/** A form's onSubmit that runs `run` instead of reloading the page. */
export function submitWith(run: () => unknown): (event: FormEvent) => void {
  return (event) => {
    event.preventDefault();
    void run();
  };
}
