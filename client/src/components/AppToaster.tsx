// SPEC §9 toasts: bottom-right, 4 s, at most 3 visible, each closable; what screen readers hear is Spanish
// (sonner's defaults are 'Notifications alt+T' and 'Close toast'). CONTRACT §16: on a phone (< 640 px)
// they sit at the top, one at a time, clear of the action buttons the driver needs at the bottom.
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_VISIBLE } from '@shared/constants';
import { UI_TOASTER } from '@shared/labels';
import { useMediaQuery } from './board/hooks';

export const PHONE_QUERY = '(max-width: 639px)';

/** Where the toasts go and how many show at once, by screen size. */
export const toasterLayout = (phone: boolean) =>
  phone
    ? ({ position: 'top-center', visibleToasts: 1 } as const)
    : ({ position: 'bottom-right', visibleToasts: TOAST_VISIBLE } as const);

export function AppToaster() {
  const phone = useMediaQuery(PHONE_QUERY);
  const { position, visibleToasts } = toasterLayout(phone);
  return (
    <Toaster
      position={position}
      duration={TOAST_DURATION_MS}
      visibleToasts={visibleToasts}
      richColors
      closeButton
      customAriaLabel={UI_TOASTER.region}
      toastOptions={{ closeButtonAriaLabel: UI_TOASTER.close }}
    />
  );
}
