// Counted texts agree with their count (issue 28: `Hay 1 usuario(s)` and `1 acciones pendientes` were found).
import { describe, expect, it } from 'vitest';
import { UI_APPROVAL, UI_DRIVER, plural } from './index';

describe('plural', () => {
  it('one, none and many', () => {
    expect(plural(1, 'tarea', 'tareas')).toBe('1 tarea');
    expect(plural(0, 'tarea', 'tareas')).toBe('0 tareas');
    expect(plural(2, 'tarea', 'tareas')).toBe('2 tareas');
  });

  it('the texts that count people and actions', () => {
    expect(UI_APPROVAL.count(1)).toBe('Hay 1 usuario esperando aprobación');
    expect(UI_APPROVAL.count(3)).toBe('Hay 3 usuarios esperando aprobación');
    expect(UI_DRIVER.offline.indicator(1)).toBe('Sin conexión · 1 acción pendiente');
    expect(UI_DRIVER.offline.indicator(2)).toBe('Sin conexión · 2 acciones pendientes');
    expect(UI_DRIVER.offline.sending(1)).toBe('Enviando 1 acción pendiente…');
  });
});
