// The period presets (issue 30 item 3, CONTRACT §22): Hoy, Ayer, 7 días, 30 días, Este mes, or two dates
// typed. One picker for the Indicadores view and the Excel exports, so every range is chosen the same way.
import { useState } from 'react';
import { PERIOD_PRESET_LABELS, UI_PERIOD } from '@shared/labels';
import { PERIOD_PRESETS, presetOf, presetRange, type DayRange } from '@shared/periods';
import { cn } from './cn';
import { Field, inputClass } from './Field';

interface PeriodPickerProps {
  value: DayRange;
  /** Today's Madrid date (the server's clock): what the presets count from and the latest day allowed. */
  today: string;
  onChange: (range: DayRange) => void;
  className?: string;
}

const chip = (active: boolean) =>
  cn(
    'h-10 shrink-0 rounded-lg px-3 text-sm font-medium transition-colors pointer-coarse:h-11',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500',
    active
      ? 'bg-slate-900 text-white'
      : 'bg-white text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50',
  );

/** The preset buttons alone, lit when the range is that preset: they fill a range, the caller shows it. */
export function PresetButtons({
  value,
  today,
  onPick,
  lit = true,
}: {
  value: DayRange;
  today: string;
  onPick: (range: DayRange) => void;
  /** False while the user types dates (the Personalizado button is lit instead). */
  lit?: boolean;
}) {
  const preset = lit ? presetOf(value, today) : null;
  return PERIOD_PRESETS.map((p) => (
    <button
      key={p}
      type="button"
      aria-pressed={preset === p}
      className={chip(preset === p)}
      onClick={() => onPick(presetRange(p, today))}
    >
      {PERIOD_PRESET_LABELS[p]}
    </button>
  ));
}

export function PeriodPicker({ value, today, onChange, className }: PeriodPickerProps) {
  // Typing dates is asked for; a range that is no preset (a reload, a link) shows its dates too.
  const [typing, setTyping] = useState(false);
  const custom = typing || presetOf(value, today) === null;
  const T = UI_PERIOD;

  return (
    <div className={cn('space-y-3', className)}>
      <div role="group" aria-label={T.period} className="flex flex-wrap gap-2">
        <PresetButtons
          value={value}
          today={today}
          lit={!custom}
          onPick={(range) => {
            setTyping(false);
            onChange(range);
          }}
        />
        <button type="button" aria-pressed={custom} className={chip(custom)} onClick={() => setTyping(true)}>
          {T.custom}
        </button>
      </div>
      {custom && (
        <div className="grid max-w-md grid-cols-2 gap-3">
          {(['from', 'to'] as const).map((key) => (
            <Field key={key} label={T[key]}>
              {(control) => (
                <input
                  {...control}
                  type="date"
                  required
                  max={today}
                  value={value[key]}
                  // An emptied input keeps the last day: the server needs both.
                  onChange={(e) => e.target.value && onChange({ ...value, [key]: e.target.value })}
                  className={inputClass}
                />
              )}
            </Field>
          ))}
        </div>
      )}
    </div>
  );
}
