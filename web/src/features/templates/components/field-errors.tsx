import { createContext, useContext, type ReactNode } from 'react';
import { ApiError, type FieldError } from '../../../shared/api/client.ts';

// The fields a 422 named (`content.blocks[2].url`, `translations.de.subject`, `content` with an MJML line), handed
// to the controls that edit them, so each problem shows next to its field. `marked` fields are only marked invalid:
// their messages show elsewhere once (the preview lists its own problems).
const FieldErrorsContext = createContext<{ errors: readonly FieldError[]; marked: readonly FieldError[] }>({
  errors: [],
  marked: [],
});

/** The fields named by the errors of `sources` (a save's, a preview's), the first source's first. */
export function fieldsOf(...sources: unknown[]): FieldError[] {
  return sources.flatMap((e) => (e instanceof ApiError && e.status === 422 ? e.fields : []));
}

export function FieldErrorsProvider({
  errors,
  marked = [],
  children,
}: {
  errors: readonly FieldError[];
  marked?: readonly FieldError[];
  children: ReactNode;
}) {
  return <FieldErrorsContext.Provider value={{ errors, marked }}>{children}</FieldErrorsContext.Provider>;
}

/** The messages for exactly this field, without repeats. */
export function useErrorsAt(path: string): string[] {
  const { errors } = useContext(FieldErrorsContext);
  return [...new Set(errors.filter((e) => e.field === path).map((e) => e.message))];
}

/** Whether some field at or below `path` has a problem (a block whose URL is wrong). */
export function useHasErrorsUnder(path: string): boolean {
  const { errors, marked } = useContext(FieldErrorsContext);
  return [...errors, ...marked].some(
    (e) => e.field === path || e.field.startsWith(`${path}.`) || e.field.startsWith(`${path}[`),
  );
}

/** The problems of one field, under its control; `id` is what the control's aria-describedby names. */
export function FieldProblem({ path, id }: { path: string; id: string }) {
  const messages = useErrorsAt(path);
  if (messages.length === 0) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {messages.join('; ')}
    </p>
  );
}

/** Props for a control whose field may have a problem: marked invalid and described by it. */
export function useInvalid(path: string, id: string): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  const messages = useErrorsAt(path);
  const { marked } = useContext(FieldErrorsContext);
  if (messages.length) return { 'aria-invalid': true, 'aria-describedby': id };
  return marked.some((e) => e.field === path) ? { 'aria-invalid': true } : {};
}
