// What a screen reader hears from the toasts is Spanish (sonner's defaults are English); where the
// toasts sit and how many show at once, by screen size.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { TOAST_VISIBLE } from '@shared/constants';
import { UI_TOASTER } from '@shared/labels';
import { AppToaster, PHONE_QUERY, toasterLayout } from './AppToaster';

afterEach(cleanup);

describe('toaster', () => {
  it("names its region and every close button in Spanish ('Cerrar aviso'), never 'Close toast'", async () => {
    render(<AppToaster />);
    act(() => void toast.success('Tarea actualizada exitosamente'));
    const close = await screen.findByRole('button', { name: UI_TOASTER.close });
    expect(close).toHaveAttribute('aria-label', 'Cerrar aviso');
    expect(screen.getByRole('region', { name: UI_TOASTER.region })).toBeInTheDocument();
    expect(document.body.innerHTML).not.toMatch(/Close toast|Notifications alt/);
  });
});

describe('toaster placement (SPEC §9, CONTRACT §16)', () => {
  /** A window whose width answers `(max-width: 639px)` as a phone would, or not. */
  function screenWidth(px: number) {
    vi.stubGlobal(
      'matchMedia',
      (query: string) =>
        ({
          matches: query === PHONE_QUERY ? px < 640 : false,
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
  }
  const toaster = () => document.querySelector<HTMLElement>('[data-sonner-toaster]')!;
  const shownToasts = () =>
    [...document.querySelectorAll('[data-sonner-toast]')].filter(
      (t) => t.getAttribute('data-visible') === 'true',
    );

  afterEach(() => {
    vi.unstubAllGlobals();
    act(() => void toast.dismiss());
  });

  it('a phone: at the top, centred, one at a time', async () => {
    expect(toasterLayout(true)).toEqual({ position: 'top-center', visibleToasts: 1 });
    screenWidth(390);
    render(<AppToaster />);
    act(() => {
      toast.success('Fichaje de entrada registrado');
      toast.info('Nueva tarea asignada');
      toast.error('Error al cargar tareas Swap disponibles');
    });
    await waitFor(() => expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(3));
    expect(toaster()).toHaveAttribute('data-y-position', 'top');
    expect(toaster()).toHaveAttribute('data-x-position', 'center');
    expect(shownToasts()).toHaveLength(1);
  });

  it('larger screens keep SPEC §9: bottom right, three at once', async () => {
    expect(toasterLayout(false)).toEqual({ position: 'bottom-right', visibleToasts: TOAST_VISIBLE });
    screenWidth(1024);
    render(<AppToaster />);
    act(() => {
      for (const text of ['uno', 'dos', 'tres', 'cuatro']) toast.success(text);
    });
    await waitFor(() => expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(4));
    expect(toaster()).toHaveAttribute('data-y-position', 'bottom');
    expect(toaster()).toHaveAttribute('data-x-position', 'right');
    expect(shownToasts()).toHaveLength(TOAST_VISIBLE);
  });
});
