import type { LucideIcon } from 'lucide-react';
import { Button, type ButtonProps } from './Button';

/**
 * A card-header button: icon and label on a desk; on a phone the icon alone, so the card title keeps
 * its room (the label stays for screen readers). While `loading`, the spinner takes the icon's place.
 */
export function HeaderAction({
  icon: Icon,
  label,
  variant = 'secondary',
  loading,
  ...rest
}: Omit<ButtonProps, 'children' | 'size'> & { icon: LucideIcon; label: string }) {
  return (
    <Button variant={variant} size="sm" loading={loading} {...rest}>
      {!loading && <Icon aria-hidden className="size-4" />}
      <span className="sr-only sm:not-sr-only">{label}</span>
    </Button>
  );
}
