import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cn } from './cn';

/** The text-input look, for inputs that are not wrapped in a Field (search boxes, date pickers). */
export const inputClass = cn(
  'block h-10 w-full rounded-lg bg-white px-3 text-sm text-slate-900 placeholder:text-slate-400',
  'ring-1 ring-inset ring-slate-300 focus:outline-none focus:ring-2 focus:ring-blue-500',
  'disabled:cursor-not-allowed disabled:bg-slate-50 disabled:opacity-60',
  'aria-[invalid=true]:ring-red-400',
);

interface FieldProps {
  label: string;
  /** The validation message under the control; also marks the control invalid. */
  error?: string | null;
  hint?: ReactNode;
  /** The control; receives the id, error wiring and invalid flag through this render function. */
  children: (control: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
  className?: string;
}

/** A label, a control and its error message, wired for screen readers. */
export function Field({ label, error, hint, children, className }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': error ? errorId : undefined })}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : (
        hint && <p className="text-xs text-slate-500">{hint}</p>
      )}
    </div>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> & {
  label: string;
  error?: string | null;
  hint?: ReactNode;
};

/** The common case: a labelled text input. */
export function TextField({ label, error, hint, className, ...input }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => <input {...input} {...control} className={inputClass} />}
    </Field>
  );
}
