// The Portería's building blocks for a gate tablet and a phone worked with gloves: every target at least
// 48 px high (CONTRACT §19), text large enough to read at arm's length.
import { useId, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode } from 'react';
import { TEXT_MAX } from '@shared/constants';
import { cn } from '../../components/cn';

/** A 48 px text input. */
export const bigInput = cn(
  'block h-12 w-full rounded-lg bg-white px-3 text-base text-slate-900 placeholder:text-slate-400',
  'ring-1 ring-inset ring-slate-300 focus:outline-none focus:ring-2 focus:ring-blue-500',
  'disabled:cursor-not-allowed disabled:bg-slate-50 disabled:opacity-60 aria-[invalid=true]:ring-red-400',
);

/** A labelled 48 px control; `children` receives the id the label points at. */
export function BigField({
  label,
  hint,
  className,
  children,
}: {
  label: string;
  hint?: ReactNode;
  className?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={cn('space-y-1', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children(id)}
      {hint && <p className="text-xs text-slate-500">{hint}</p>}
    </div>
  );
}

type BigTextProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  label: string;
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** A plate: upper-cased as typed, monospaced, no spelling help. */
  plate?: boolean;
};

/** A labelled 48 px one-line text (at most §24's 120 characters). */
export function BigText({ label, hint, value, onChange, plate = false, className, ...input }: BigTextProps) {
  return (
    <BigField label={label} hint={hint}>
      {(id) => (
        <input
          id={id}
          value={value}
          onChange={(e) => onChange(plate ? e.target.value.toUpperCase() : e.target.value)}
          maxLength={TEXT_MAX}
          autoComplete="off"
          autoCapitalize={plate ? 'characters' : undefined}
          spellCheck={plate ? false : undefined}
          className={cn(bigInput, plate && 'font-mono', className)}
          {...input}
        />
      )}
    </BigField>
  );
}

/** A 48 px toggle of a choice group (pressed = chosen); without `pressed`, a plain 48 px button. */
export function Choice({
  pressed,
  tone = 'blue',
  className,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { pressed?: boolean; tone?: 'blue' | 'green' | 'red' }) {
  const on = {
    blue: 'bg-blue-600 text-white',
    green: 'bg-emerald-600 text-white',
    red: 'bg-red-600 text-white',
  };
  return (
    <button
      type="button"
      aria-pressed={pressed}
      className={cn(
        'inline-flex min-h-12 min-w-12 items-center justify-center gap-2 rounded-lg px-4 text-base font-semibold',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500',
        pressed ? on[tone] : 'bg-white text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50',
        className,
      )}
      {...rest}
    />
  );
}

/** A titled part of the form. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      {/* Floated, the legend sits inside the box like a heading; the content clears it (a grid beside a
          full-width float would be squeezed to nothing). */}
      <legend className="float-left mb-3 w-full text-lg font-semibold text-slate-900">{title}</legend>
      <div className="clear-both space-y-3">{children}</div>
    </fieldset>
  );
}
