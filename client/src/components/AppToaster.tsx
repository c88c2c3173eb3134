// SPEC §9 toasts: bottom-right, 4 s, at most 3 visible, each closable; what screen readers hear is Spanish
// (sonner's defaults are 'Notifications alt+T' and 'Close toast').
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_VISIBLE } from '@shared/constants';
import { UI_TOASTER } from '@shared/labels';

export function AppToaster() {
  return (
    <Toaster
      position="bottom-right"
      duration={TOAST_DURATION_MS}
      visibleToasts={TOAST_VISIBLE}
      richColors
      closeButton
      customAriaLabel={UI_TOASTER.region}
      toastOptions={{ closeButtonAriaLabel: UI_TOASTER.close }}
    />
  );
}
