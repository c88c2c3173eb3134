// The phone's scan (CONTRACT §20) with the camera and the decoder mocked: the destination's code completes
// (scan from the camera, manual when typed), another place asks first, an unknown code says so, and the
// camera stops when the dialog closes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PROOF_TEXT } from '@shared/labels';
import { makeTask } from '../../test/tasks';
import { makeLocation } from '../Locations/test-fixtures';
import { openCamera, readFrame } from './qr-reader';
import { ScanDialog } from './ScanDialog';

vi.mock('./qr-reader', () => ({ openCamera: vi.fn(), readFrame: vi.fn() }));

const dock = makeLocation({ code: 'MU-01', name: 'Muelle 1' });
const campa = makeLocation({ code: 'CA-01', name: 'Campa 1', kind: 'campa' });
const old = makeLocation({ code: 'OLD-1', name: 'Antigua', active: false });
const task = makeTask({ status: 'en_proceso', destination: 'Muelle 1', destination_location_id: dock.id });

const stop = vi.fn();
let frame: string | null = null;
beforeEach(() => {
  frame = null;
  stop.mockClear();
  vi.mocked(openCamera).mockResolvedValue({ getTracks: () => [{ stop }] } as unknown as MediaStream);
  vi.mocked(readFrame).mockImplementation(() => Promise.resolve(frame));
});
afterEach(cleanup);

function renderDialog(onComplete = vi.fn(() => Promise.resolve()), onOpenChange = vi.fn()) {
  render(
    <ScanDialog
      task={task}
      open
      onOpenChange={onOpenChange}
      locations={[dock, campa, old]}
      onComplete={onComplete}
    />,
  );
  return { onComplete, onOpenChange };
}
const type = async (code: string) => {
  await userEvent.type(screen.getByLabelText(PROOF_TEXT.codeLabel), code);
  await userEvent.click(screen.getByRole('button', { name: PROOF_TEXT.codeSubmit }));
};

describe('Escanear ubicación', () => {
  it('a camera decode of the destination completes with proof scan and closes', async () => {
    const { onComplete, onOpenChange } = renderDialog();
    expect(await screen.findByRole('dialog', { name: PROOF_TEXT.scanTitle })).toBeInTheDocument();
    await waitFor(() => expect(openCamera).toHaveBeenCalled());
    frame = 'MU-01';
    await waitFor(() => expect(onComplete).toHaveBeenCalledWith({ proof: 'scan', location_id: dock.id }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it('a typed code of the destination (any case) completes with proof manual', async () => {
    const { onComplete } = renderDialog();
    await type('mu-01');
    expect(onComplete).toHaveBeenCalledWith({ proof: 'manual', location_id: dock.id });
  });

  it('another place asks ¿Lo has dejado en …? and completes there once confirmed; No goes back', async () => {
    const { onComplete } = renderDialog();
    frame = 'CA-01';
    expect(await screen.findByRole('dialog', { name: PROOF_TEXT.otherPlace('Campa 1') })).toBeInTheDocument();
    expect(onComplete).not.toHaveBeenCalled();
    // The question stops the camera.
    await waitFor(() => expect(stop).toHaveBeenCalled());
    frame = null;
    await userEvent.click(screen.getByRole('button', { name: PROOF_TEXT.cancelOther }));
    expect(await screen.findByRole('dialog', { name: PROOF_TEXT.scanTitle })).toBeInTheDocument();
    await type('CA-01');
    await userEvent.click(await screen.findByRole('button', { name: PROOF_TEXT.confirmOther }));
    expect(onComplete).toHaveBeenCalledWith({ proof: 'manual', location_id: campa.id });
  });

  it('an unknown or inactive code says so and completes nothing', async () => {
    const { onComplete } = renderDialog();
    await type('XX-9');
    expect(screen.getByRole('alert')).toHaveTextContent(PROOF_TEXT.unknownCode('XX-9'));
    await userEvent.clear(screen.getByLabelText(PROOF_TEXT.codeLabel));
    await type('OLD-1');
    expect(screen.getByRole('alert')).toHaveTextContent(PROOF_TEXT.unknownCode('OLD-1'));
    expect(onComplete).not.toHaveBeenCalled();
  });

  it('without a camera it says so and typing still works', async () => {
    vi.mocked(openCamera).mockRejectedValueOnce(new Error('denied'));
    const { onComplete } = renderDialog();
    expect(await screen.findByText(PROOF_TEXT.cameraUnavailable)).toBeInTheDocument();
    await type('MU-01');
    expect(onComplete).toHaveBeenCalledWith({ proof: 'manual', location_id: dock.id });
  });

  it('Cerrar asks to close, and the closed dialog stops the camera', async () => {
    const onOpenChange = vi.fn();
    const props = { task, locations: [dock], onComplete: vi.fn(), onOpenChange };
    const { rerender } = render(<ScanDialog {...props} open />);
    await waitFor(() => expect(openCamera).toHaveBeenCalled());
    await act(() => Promise.resolve());
    await userEvent.click(screen.getByRole('button', { name: PROOF_TEXT.close }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(stop).not.toHaveBeenCalled();
    rerender(<ScanDialog {...props} open={false} />);
    expect(stop).toHaveBeenCalled();
  });
});
