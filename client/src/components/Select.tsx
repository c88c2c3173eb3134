import * as RadixSelect from '@radix-ui/react-select';
import { Check, ChevronDown } from 'lucide-react';
import { cn } from './cn';

export interface SelectOption<V extends string> {
  value: V;
  label: string;
}

interface SelectProps<V extends string> {
  value: V;
  onChange: (value: V) => void;
  options: readonly SelectOption<V>[];
  id?: string;
  /** Needed when no <label htmlFor={id}> names it. */
  'aria-label'?: string;
  disabled?: boolean;
  className?: string;
}

/** Radix Select: keyboard and screen-reader friendly, styled like the text inputs. */
export function Select<V extends string>({
  value,
  onChange,
  options,
  id,
  disabled,
  className,
  ...aria
}: SelectProps<V>) {
  return (
    <RadixSelect.Root value={value} onValueChange={(v) => onChange(v as V)} disabled={disabled}>
      <RadixSelect.Trigger
        id={id}
        aria-label={aria['aria-label']}
        className={cn(
          'flex h-10 w-full items-center justify-between gap-2 rounded-lg bg-white px-3 text-left text-sm text-slate-900',
          'ring-1 ring-inset ring-slate-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500',
          'disabled:cursor-not-allowed disabled:opacity-50 data-[placeholder]:text-slate-400',
          className,
        )}
      >
        <RadixSelect.Value />
        <RadixSelect.Icon>
          <ChevronDown aria-hidden className="size-4 text-slate-500" />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content
          position="popper"
          sideOffset={4}
          className="z-[60] max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-lg bg-white shadow-lg ring-1 ring-slate-900/10"
        >
          <RadixSelect.Viewport className="p-1">
            {options.map((o) => (
              <RadixSelect.Item
                key={o.value}
                value={o.value}
                className="relative flex cursor-pointer select-none items-center rounded-md py-2 pl-8 pr-3 text-sm text-slate-800 outline-none data-[highlighted]:bg-blue-50 data-[highlighted]:text-blue-900"
              >
                <RadixSelect.ItemIndicator className="absolute left-2">
                  <Check aria-hidden className="size-4 text-blue-600" />
                </RadixSelect.ItemIndicator>
                <RadixSelect.ItemText>{o.label}</RadixSelect.ItemText>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
