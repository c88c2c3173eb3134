// A checklist of codes with their Spanish names beside them (an API key's scopes, a webhook's events).
export function CodeChecklist<C extends string>({
  codes,
  labels,
  checked,
  onToggle,
  className,
}: {
  codes: readonly C[];
  labels: Record<C, string>;
  checked: readonly C[];
  onToggle: (code: C, on: boolean) => void;
  className?: string;
}) {
  return (
    <div className={className}>
      {codes.map((code) => (
        <label key={code} className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={checked.includes(code)}
            onChange={(e) => onToggle(code, e.target.checked)}
            className="size-4"
          />
          <span>{labels[code]}</span>
          <span className="font-mono text-xs text-slate-500">{code}</span>
        </label>
      ))}
    </div>
  );
}
