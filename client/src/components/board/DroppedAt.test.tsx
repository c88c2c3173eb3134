// CONTRACT §20: a finished task left at another place than its destination says `Dejado en {place}`, on
// the board's card and in the searcher; a task left at its destination, or open, says nothing of it.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { PROOF_TEXT } from '@shared/labels';
import { makeTask } from '../../test/tasks';
import { DroppedAt } from './DroppedAt';
import { TaskCardBody } from './TaskCard';

afterEach(cleanup);

describe('Dejado en', () => {
  it('shows where a finished task’s trailer was really left', () => {
    const task = makeTask({
      status: 'finalizada',
      proof: 'scan',
      dropped_at_location_id: 'l-1',
      dropped_at_location_name: 'Campa 1',
    });
    render(<DroppedAt task={task} />);
    expect(screen.getByTestId('dropped-at')).toHaveTextContent(PROOF_TEXT.droppedAt('Campa 1'));
    expect(PROOF_TEXT.droppedAt('Campa 1')).toBe('Dejado en Campa 1');
  });

  it('says nothing at the destination or while open', () => {
    render(<DroppedAt task={makeTask({ status: 'finalizada', proof: 'manual' })} />);
    render(<DroppedAt task={makeTask({ dropped_at_location_name: 'Campa 1' })} />);
    expect(screen.queryByTestId('dropped-at')).toBeNull();
  });

  it('is on the board’s card, full and compact (the wall)', () => {
    const task = makeTask({ status: 'finalizada', proof: 'manual', dropped_at_location_name: 'Campa 1' });
    for (const density of ['normal', 'compact'] as const) {
      const { unmount } = render(<TaskCardBody task={task} density={density} />);
      expect(screen.getByTestId('dropped-at'), density).toHaveTextContent('Dejado en Campa 1');
      unmount();
    }
  });
});
