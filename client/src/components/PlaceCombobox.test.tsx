// The place autocomplete (CONTRACT §17) inside a dialog, as the task form uses it: the combobox pattern's
// ARIA and keys, accent- and case-insensitive substring suggestions on name and code (at most eight, the
// closest first), Escape closing the list before the dialog, and the `Fuera del catálogo` mark.
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UI_PLACE_INPUT } from '@shared/labels';
import type { Location } from '@shared/schemas';
import { makeLocation } from '../views/Locations/test-fixtures';
import { Modal } from './Modal';
import { MAX_SUGGESTIONS, PlaceCombobox, suggestPlaces } from './PlaceCombobox';

const user = () => userEvent.setup({ delay: null });

const bascula = makeLocation({
  code: 'BASCULA-1',
  name: 'Báscula Entrada',
  kind: 'bascula',
  zone: 'Accesos',
});
const lavadero = makeLocation({ code: 'LAV-1', name: 'Lavadero', kind: 'lavadero', zone: 'Servicios' });
// Twelve places of Campa B, and one whose code (not name) holds "campa".
const campa = Array.from({ length: 12 }, (_, i) =>
  makeLocation({ code: `CB-${i + 1}`, name: `Campa B-${String(i + 1).padStart(2, '0')}`, zone: 'Campa B' }),
);
const overflow = makeLocation({ code: 'CAMPA-X', name: 'Rebose', zone: 'Exterior' });
const PLACES: Location[] = [bascula, ...campa, lavadero, overflow];

afterEach(cleanup);

function Harness({
  places = PLACES,
  room,
  onPick = () => {},
  onOpenChange = () => {},
}: {
  places?: Location[];
  room?: Record<string, number | null>;
  onPick?: (place: Location | null) => void;
  onOpenChange?: (open: boolean) => void;
}) {
  const [text, setText] = useState('');
  const [placeId, setPlaceId] = useState<string | null>(null);
  return (
    <Modal open onOpenChange={onOpenChange} title="Prueba">
      <PlaceCombobox
        label="Destino"
        name="destination"
        value={text}
        placeId={placeId}
        places={places}
        room={room}
        onChange={(t, place) => {
          setText(t);
          setPlaceId(place?.id ?? null);
          onPick(place);
        }}
      />
    </Modal>
  );
}

const input = () => screen.getByRole('combobox', { name: 'Destino' });
const optionNames = () =>
  within(screen.getByRole('listbox', { name: UI_PLACE_INPUT.suggestions }))
    .getAllByRole('option')
    .map((o) => o.querySelector('.font-medium')!.textContent);

describe('suggestPlaces', () => {
  it('matches a substring of the name or the code, accents, case and repeated spaces aside', () => {
    expect(suggestPlaces(PLACES, 'BASCULA').map((p) => p.name)).toEqual(['Báscula Entrada']);
    expect(suggestPlaces(PLACES, 'entrada').map((p) => p.name)).toEqual(['Báscula Entrada']);
    expect(suggestPlaces(PLACES, 'báscula   ENT').map((p) => p.name)).toEqual(['Báscula Entrada']);
    expect(suggestPlaces(PLACES, 'lav-1').map((p) => p.name)).toEqual(['Lavadero']);
    expect(suggestPlaces(PLACES, 'nave')).toEqual([]);
  });

  it('gives at most eight: an exact name or code first, then those that start with the text', () => {
    expect(suggestPlaces(PLACES, 'campa')).toHaveLength(MAX_SUGGESTIONS);
    const exact = makeLocation({ code: 'CB-1-BIS', name: 'Campa B-1', zone: 'Campa B' });
    expect(suggestPlaces([...campa, exact], 'campa b-1').map((p) => p.name)).toEqual([
      'Campa B-1',
      'Campa B-10',
      'Campa B-11',
      'Campa B-12',
    ]);
    expect(suggestPlaces(PLACES, 'cb-1').map((p) => p.code)).toEqual(['CB-1', 'CB-10', 'CB-11', 'CB-12']);
    // Only contained: catalogue order.
    expect(suggestPlaces(PLACES, 'b-1').map((p) => p.name)).toEqual([
      'Campa B-01',
      'Campa B-10',
      'Campa B-11',
      'Campa B-12',
    ]);
  });
});

describe('suggestPlaces: natural order (CONTRACT §19)', () => {
  // In catalogue order as a careless import left it: 10 before 2, and a code that starts with the text.
  const docks = [10, 2, 1, 21, 3].map((n) =>
    makeLocation({ code: `M-${n}`, name: `Muelle ${n}`, kind: 'muelle', zone: 'Muelles' }),
  );
  const outer = makeLocation({ code: 'MUELLE-EXT', name: 'Andén exterior', zone: 'Exterior' });

  it('orders each match group by name, numbers by their value: Muelle 2 before Muelle 10', () => {
    expect(suggestPlaces(docks, 'muelle').map((p) => p.name)).toEqual([
      'Muelle 1',
      'Muelle 2',
      'Muelle 3',
      'Muelle 10',
      'Muelle 21',
    ]);
    // The exact name first, then those that start with the text, each group in natural order.
    expect(suggestPlaces([...docks, outer], 'muelle 1').map((p) => p.name)).toEqual([
      'Muelle 1',
      'Muelle 10',
    ]);
    expect(suggestPlaces([...docks, outer], 'muelle 2').map((p) => p.name)).toEqual([
      'Muelle 2',
      'Muelle 21',
    ]);
    expect(suggestPlaces([...docks, outer], 'm').map((p) => p.name)).toEqual([
      'Andén exterior',
      'Muelle 1',
      'Muelle 2',
      'Muelle 3',
      'Muelle 10',
      'Muelle 21',
    ]);
  });
});

describe('PlaceCombobox', { timeout: 20_000 }, () => {
  it('given the room, each suggestion says its free places, `completa` when none, nothing for a gate', async () => {
    const gate = makeLocation({ code: 'PUERTA-N', name: 'Puerta Norte', kind: 'puerta', zone: 'Accesos' });
    const swap = makeLocation({ code: 'SW-1', name: 'Puesto swap 1', kind: 'zona_swap', zone: 'Swap' });
    const places = [campa[0], campa[1], swap, gate];
    render(
      <Harness
        places={places}
        room={{ [campa[0].id]: 0, [campa[1].id]: 1, [swap.id]: 3, [gate.id]: null }}
      />,
    );
    await user().type(input(), 'p');
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    const room = (name: string) =>
      options.find((o) => o.textContent!.startsWith(name))!.querySelector('[data-room]')?.textContent ?? null;
    expect(room('Campa B-01')).toBe(UI_PLACE_INPUT.full);
    expect(room('Campa B-02')).toBe(UI_PLACE_INPUT.free(1));
    expect(UI_PLACE_INPUT.free(1)).toBe('1 libre');
    expect(room('Puesto swap 1')).toBe('3 libres');
    expect(room('Puerta Norte')).toBeNull();
    expect(UI_PLACE_INPUT.full).toBe('completa');
  });

  it('without the room (the origin) no suggestion shows any', async () => {
    render(<Harness />);
    await user().type(input(), 'campa');
    expect(screen.getByRole('listbox').querySelector('[data-room]')).toBeNull();
  });

  it('is a combobox labelled by its field; typing opens the listbox of name, code and zone', async () => {
    render(<Harness />);
    expect(input()).toHaveAttribute('aria-expanded', 'false');
    expect(input()).toHaveAttribute('aria-autocomplete', 'list');
    await user().type(input(), 'entr');
    expect(input()).toHaveAttribute('aria-expanded', 'true');
    const listbox = screen.getByRole('listbox');
    expect(input()).toHaveAttribute('aria-controls', listbox.id);
    expect(within(listbox).getByRole('option')).toHaveTextContent('Báscula EntradaBASCULA-1 · Accesos');
    await user().type(input(), 'zzz');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input()).toHaveAttribute('aria-expanded', 'false');
  });

  it('arrows move the highlight (wrapping), Enter picks it and closes the list', async () => {
    const onPick = vi.fn();
    render(<Harness onPick={onPick} />);
    await user().type(input(), 'campa');
    expect(optionNames()).toHaveLength(MAX_SUGGESTIONS);
    expect(input()).not.toHaveAttribute('aria-activedescendant');
    await user().keyboard('{ArrowDown}{ArrowDown}');
    const options = screen.getAllByRole('option');
    expect(input()).toHaveAttribute('aria-activedescendant', options[1].id);
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    await user().keyboard('{ArrowUp}{ArrowUp}');
    expect(input()).toHaveAttribute('aria-activedescendant', options[MAX_SUGGESTIONS - 1].id);
    await user().keyboard('{ArrowDown}{Enter}');
    expect(input()).toHaveValue('Campa B-01');
    expect(onPick).toHaveBeenLastCalledWith(campa[0]);
    expect(screen.queryByRole('listbox')).toBeNull();
    // ArrowDown on a closed list opens it again.
    await user().keyboard('{ArrowDown}');
    expect(optionNames()).toEqual(['Campa B-01']);
  });

  it('Escape closes the list and leaves the dialog open; a second Escape closes the dialog', async () => {
    const onOpenChange = vi.fn();
    render(<Harness onOpenChange={onOpenChange} />);
    await user().type(input(), 'lav');
    await user().keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input()).toHaveValue('lav');
    expect(onOpenChange).not.toHaveBeenCalled();
    await user().keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('a click picks, and the input keeps the focus', async () => {
    const onPick = vi.fn();
    render(<Harness onPick={onPick} />);
    await user().type(input(), 'rebo');
    await user().click(screen.getByRole('option'));
    expect(onPick).toHaveBeenLastCalledWith(overflow);
    expect(input()).toHaveValue('Rebose');
    expect(input()).toHaveFocus();
  });

  it('leaving the field closes the list', async () => {
    render(<Harness />);
    await user().type(input(), 'campa');
    await user().tab();
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('marks free text `Fuera del catálogo`, never a name or code of the catalogue, nor an empty field', async () => {
    render(<Harness />);
    await user().type(input(), 'Nave 4');
    const mark = screen.getByText(UI_PLACE_INPUT.offCatalogue);
    expect(input()).toHaveAccessibleDescription(
      `${UI_PLACE_INPUT.offCatalogue}. ${UI_PLACE_INPUT.offCatalogueHint}`,
    );
    expect(mark).toBeVisible();
    await user().clear(input());
    expect(screen.queryByText(UI_PLACE_INPUT.offCatalogue)).toBeNull();
    await user().type(input(), 'bascula entrada');
    expect(screen.queryByText(UI_PLACE_INPUT.offCatalogue)).toBeNull();
    await user().clear(input());
    await user().type(input(), 'lav-1');
    expect(screen.queryByText(UI_PLACE_INPUT.offCatalogue)).toBeNull();
  });

  it('without a catalogue it is a plain text field: no suggestions, no mark', async () => {
    render(<Harness places={[]} />);
    await user().type(input(), 'Muelle 3');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.queryByText(UI_PLACE_INPUT.offCatalogue)).toBeNull();
  });
});
