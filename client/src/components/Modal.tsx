import { useRef, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { UI_COMMON } from '@shared/labels';
import { cn } from './cn';

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** The button row (Cancelar / Guardar…), kept visible while the body scrolls. */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** Stop Escape/outside clicks from closing while something is in flight. */
  dismissible?: boolean;
}

/**
 * The control the pointer last pressed, and when. A click does not always focus what it clicks (Safari
 * never focuses buttons; a board card's buttons sit inside a drag handle that keeps focus where it
 * was), so the opener of a dialog opened by a click is found here when focus is still on <body>.
 */
let pressed: { el: HTMLElement; at: number } | null = null;
const PRESSED_FRESH_MS = 2000;
if (typeof document !== 'undefined') {
  document.addEventListener(
    'click',
    (e) => {
      const el =
        e.target instanceof Element
          ? e.target.closest<HTMLElement>('button, a[href], input, select, [role="menuitem"], [tabindex]')
          : null;
      pressed = el ? { el, at: Date.now() } : null;
    },
    true,
  );
}

/** What had focus, or was just clicked, as a dialog opens: where focus goes back when it closes. */
function currentOpener(): HTMLElement | null {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body) return active;
  return pressed && Date.now() - pressed.at < PRESSED_FRESH_MS ? pressed.el : null;
}

const WIDTH = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl', xl: 'max-w-4xl' };

/**
 * Radix Dialog with the product's look: focus trapped, Escape closes, title and description announced,
 * and on close focus goes back to what had it when the dialog opened (the button that opened it).
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  dismissible = true,
}: ModalProps) {
  const guard = (e: Event) => {
    if (!dismissible) e.preventDefault();
  };
  // Radix gives focus back only to a Dialog.Trigger, and these dialogs are opened from the app's own
  // buttons (a row's action, a card's Editar, a menu that first refocuses its trigger): without this,
  // closing one left focus on <body> and a keyboard user started again from the top of the page.
  const opener = useRef<HTMLElement | null>(null);
  const rememberOpener = () => {
    // Called as the dialog mounts, before it moves focus inside: the focus is still the opener's.
    opener.current = currentOpener();
  };
  const refocusOpener = (e: Event) => {
    const el = opener.current;
    opener.current = null;
    // Gone (a deleted row's button): Radix's own handling, focus on the page.
    if (!el?.isConnected) return;
    e.preventDefault();
    el.focus();
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-950/60 backdrop-blur-[2px] data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <Dialog.Content
          onOpenAutoFocus={rememberOpener}
          onCloseAutoFocus={refocusOpener}
          onEscapeKeyDown={guard}
          onPointerDownOutside={guard}
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={cn(
            'fixed inset-x-3 top-1/2 z-50 mx-auto flex max-h-[calc(100dvh-1.5rem)] -translate-y-1/2 flex-col',
            'rounded-2xl bg-white shadow-2xl ring-1 ring-slate-900/10 focus:outline-none',
            'data-[state=open]:animate-[pop-in_160ms_ease-out]',
            WIDTH[size],
          )}
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-5 py-4">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
              {description && (
                <Dialog.Description className="mt-0.5 text-sm text-slate-500">
                  {description}
                </Dialog.Description>
              )}
            </div>
            <Dialog.Close
              aria-label={UI_COMMON.close}
              disabled={!dismissible}
              className="-mr-1 grid place-items-center rounded-md p-1.5 text-slate-400 max-sm:min-h-11 max-sm:min-w-11 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-blue-500 disabled:opacity-40"
            >
              <X aria-hidden className="size-5" />
            </Dialog.Close>
          </div>
          {children && <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>}
          {footer && (
            <div className="flex flex-wrap justify-end gap-2 border-t border-slate-100 bg-slate-50/60 px-5 py-3">
              {footer}
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
