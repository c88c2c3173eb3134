import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UI_COMMON } from '@shared/labels';
import { ConfirmDialog } from './ConfirmDialog';

// Typing through user-event is slow on a loaded 2-core machine; the default 5 s is too tight.
vi.setConfig({ testTimeout: 20_000 });

afterEach(cleanup);

function Harness({ onConfirm }: { onConfirm: () => Promise<unknown> }) {
  const [open, setOpen] = useState(true);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title="Eliminar tarea"
      message="Esta acción no se puede deshacer."
      confirmLabel="Eliminar"
      onConfirm={onConfirm}
    />
  );
}

describe('ConfirmDialog', () => {
  it('disables confirm while the action runs and closes when it succeeds', async () => {
    let finish!: () => void;
    const onConfirm = vi.fn(() => new Promise<void>((r) => (finish = r)));
    render(<Harness onConfirm={onConfirm} />);
    expect(screen.getByRole('dialog', { name: 'Eliminar tarea' })).toHaveTextContent(
      'Esta acción no se puede deshacer.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    expect(screen.getByRole('button', { name: 'Eliminar' })).toBeDisabled();
    expect(screen.getByRole('button', { name: UI_COMMON.cancel })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    finish();
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('stays open, enabled again, when the action fails', async () => {
    render(<Harness onConfirm={() => Promise.reject(new Error('409'))} />);
    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Eliminar' })).toBeEnabled());
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('cancel closes without running the action', async () => {
    const onConfirm = vi.fn(() => Promise.resolve());
    render(<Harness onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: UI_COMMON.cancel }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
