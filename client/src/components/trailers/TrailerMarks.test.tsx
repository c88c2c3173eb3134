import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { DEFAULT_TRAILER_MARKS } from '@shared/schemas';
import { TrailerMarks } from './TrailerMarks';

describe('TrailerMarks', () => {
  it('shows load state, ADR, the reefer setpoint and damage with Spanish titles', () => {
    render(
      <TrailerMarks
        marks={{
          kind: 'frigorifico',
          load_state: 'cargado',
          adr: true,
          reefer_setpoint_c: -18,
          damaged: true,
        }}
      />,
    );
    expect(screen.getByText('Cargado')).toHaveAttribute('title', 'Carga: Cargado');
    expect(screen.getByText('ADR')).toHaveAttribute('title', 'Mercancía peligrosa (ADR)');
    expect(screen.getByText('❄ −18 °C')).toHaveAttribute('title', 'Frigorífico a −18 °C');
    expect(screen.getByTitle('Remolque con daños')).toHaveTextContent('Remolque con daños');
  });

  it('shows Vacío alone, and nothing for a trailer of unknown load without marks', () => {
    const { container, rerender } = render(<TrailerMarks marks={DEFAULT_TRAILER_MARKS} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<TrailerMarks marks={{ ...DEFAULT_TRAILER_MARKS, load_state: 'vacio' }} />);
    expect(within(container).getByText('Vacío')).toBeInTheDocument();
    expect(within(container).queryByText('ADR')).toBeNull();
  });
});
