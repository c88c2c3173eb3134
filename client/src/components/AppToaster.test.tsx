// What a screen reader hears from the toasts is Spanish (sonner's defaults are English).
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { UI_TOASTER } from '@shared/labels';
import { AppToaster } from './AppToaster';

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
