import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERR } from '@shared/labels';
import { api, ApiError, errorText, filenameFromDisposition } from './api';
import { json, mockFetch } from './test/http';
import { clearStoredSession, storeToken } from './storage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('errors', () => {
  it("carries the server's detail; a network failure is status 0 with no detail", async () => {
    mockFetch(() => json(409, { detail: ERR.trailerBusy('R-1') }));
    const conflict = await api.post('/tasks', {}).catch((e: unknown) => e);
    expect(conflict).toMatchObject({ status: 409, detail: 'El remolque R-1 ya tiene una tarea abierta' });
    expect(errorText(conflict, 'Error al crear tarea')).toBe('El remolque R-1 ya tiene una tarea abierta');

    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const offline = await api.get('/tasks').catch((e: unknown) => e);
    expect(offline).toBeInstanceOf(ApiError);
    expect(offline).toMatchObject({ status: 0, detail: null });
    expect(errorText(offline, 'Error al cargar los datos')).toBe('Error al cargar los datos');
  });
});

describe('the balancer with no node ready (503 + Retry-After)', () => {
  const noNode = () =>
    new Response(JSON.stringify({ detail: 'No hay ningún nodo disponible' }), {
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
    });

  it('asks a read again after the wait it names, and answers with what comes then', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const fetchMock = mockFetch(() => (++calls === 1 ? noNode() : json(200, [{ id: 't-1' }])));
      const read = api.get<{ id: string }[]>('/tasks');
      await vi.advanceTimersByTimeAsync(999);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(read).resolves.toEqual([{ id: 't-1' }]);
      expect(fetchMock).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up after two more tries; a write is never repeated, nor a 503 without Retry-After', async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = mockFetch(noNode);
      const read = api.get('/tasks').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await read).toMatchObject({ status: 503, detail: 'No hay ningún nodo disponible' });
      expect(fetchMock).toHaveBeenCalledTimes(3);

      fetchMock.mockClear();
      expect(await api.post('/tasks', {}).catch((e: unknown) => e)).toMatchObject({ status: 503 });
      expect(fetchMock).toHaveBeenCalledTimes(1);

      const plain = mockFetch(() => json(503, { detail: 'Almacenamiento no disponible' }));
      expect(await api.get('/tasks').catch((e: unknown) => e)).toMatchObject({ status: 503 });
      expect(plain).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('downloads', () => {
  it.each([
    [
      'attachment; filename="control_horario_2026-11-01_to_2026-11-22.xlsx"',
      'control_horario_2026-11-01_to_2026-11-22.xlsx',
    ],
    ["attachment; filename*=UTF-8''analytics%20tareas.xlsx", 'analytics tareas.xlsx'],
    ['attachment; filename=plain.xlsx', 'plain.xlsx'],
    [null, null],
  ])('reads the file name of %s', (header, name) => {
    expect(filenameFromDisposition(header)).toBe(name);
  });

  it("saves the blob under the server's name, else the fallback", async () => {
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const fetch = mockFetch(
      () =>
        new Response('xlsx', {
          status: 200,
          headers: { 'Content-Disposition': 'attachment; filename="analytics_tareas_a_to_b.xlsx"' },
        }),
    );
    await expect(
      api.download('/admin/analytics/export-excel', 'respaldo.xlsx', { date_from: 'a', date_to: 'b' }),
    ).resolves.toBe('analytics_tareas_a_to_b.xlsx');
    expect(fetch.mock.calls[0][0]).toBe('/api/admin/analytics/export-excel?date_from=a&date_to=b');

    fetch.mockResolvedValueOnce(new Response('xlsx', { status: 200 }));
    await expect(api.download('/admin/analytics/export-excel', 'respaldo.xlsx')).resolves.toBe(
      'respaldo.xlsx',
    );
    expect(clicks).toEqual(['analytics_tareas_a_to_b.xlsx', 'respaldo.xlsx']);
  });

  it('a refused download throws with the JSON detail', async () => {
    mockFetch(() => json(400, { detail: ERR.bothDates }));
    await expect(api.download('/admin/timeclock/export-excel', 'x.xlsx')).rejects.toMatchObject({
      status: 400,
      detail: ERR.bothDates,
    });
  });
});

describe('uploads (a gate photo, CONTRACT §19)', () => {
  it('posts the FormData as it is: multipart with the token, no JSON content type', async () => {
    storeToken('tok');
    const fetchMock = mockFetch(() => json(201, { id: 'p-1' }));
    const form = new FormData();
    form.append('photo', new File([new Uint8Array([0xff, 0xd8])], 'f.jpg', { type: 'image/jpeg' }));
    await expect(api.upload('/gate/photos', form)).resolves.toEqual({ id: 'p-1' });
    const init = fetchMock.mock.calls[0][1]!;
    expect(init.method).toBe('POST');
    expect(init.body).toBe(form);
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBeUndefined();
    expect(headers.Accept).toBe('application/json');
    expect(headers.Authorization).toBe('Bearer tok');
    clearStoredSession();
  });
});
