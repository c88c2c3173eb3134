import { Volume2, VolumeX } from 'lucide-react';
import { UI_HEADER } from '@shared/labels';
import { Button } from '../../components/Button';
import { useSound } from '../../sound';

/** Mutes the alert sound (remembered in this browser). */
export function VolumeControl() {
  const muted = useSound((s) => s.muted);
  const toggle = useSound((s) => s.toggleMuted);
  const label = muted ? UI_HEADER.unmute : UI_HEADER.mute;
  return (
    <Button
      variant="header"
      size="sm"
      className="size-9 px-0"
      aria-label={label}
      title={label}
      onClick={toggle}
    >
      {muted ? (
        <VolumeX aria-hidden className="size-5 text-amber-300" />
      ) : (
        <Volume2 aria-hidden className="size-5" />
      )}
    </Button>
  );
}
