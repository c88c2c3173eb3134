import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { ERR, TOAST, UI_LOGIN } from '@shared/labels';
import { json, mockFetch, sentBody } from '../../test/http';
import { useSession } from '../../stores/session';
import { AuthForm } from './AuthForm';

// Typing through user-event is slow on a loaded 2-core machine; the default 5 s is too tight.
vi.setConfig({ testTimeout: 20_000 });

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const user = { id: 'u1', name: 'Ana Pérez', email: 'ana@patio.es', role: 'conductor' as const };

beforeEach(() => {
  localStorage.clear();
  useSession.setState({ token: null, user: null, status: 'anonymous' });
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.info).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const submit = (name: string) => userEvent.click(screen.getByRole('button', { name }));

describe('login form validation (SPEC §5)', () => {
  it('requires email and password and sends nothing', async () => {
    const fetch = mockFetch(() => json(200, {}));
    render(<AuthForm mode="login" onPending={vi.fn()} />);
    await submit(UI_LOGIN.submitLogin);
    expect(screen.getByText('El email es obligatorio')).toBeInTheDocument();
    expect(screen.getByText('La contraseña es obligatoria')).toBeInTheDocument();
    expect(screen.getByLabelText(UI_LOGIN.email)).toHaveAttribute('aria-invalid', 'true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('rejects a malformed email', async () => {
    const fetch = mockFetch(() => json(200, {}));
    render(<AuthForm mode="login" onPending={vi.fn()} />);
    await userEvent.type(screen.getByLabelText(UI_LOGIN.email), 'no-es-un-email');
    await userEvent.type(screen.getByLabelText(UI_LOGIN.password), 'secreto');
    await submit(UI_LOGIN.submitLogin);
    expect(screen.getByText('El email no tiene un formato válido')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('clears a field message as soon as the field is edited', async () => {
    mockFetch(() => json(200, {}));
    render(<AuthForm mode="login" onPending={vi.fn()} />);
    await submit(UI_LOGIN.submitLogin);
    await userEvent.type(screen.getByLabelText(UI_LOGIN.email), 'a');
    expect(screen.queryByText('El email es obligatorio')).not.toBeInTheDocument();
    expect(screen.getByText('La contraseña es obligatoria')).toBeInTheDocument();
  });
});

describe('login submit', () => {
  const fill = async () => {
    await userEvent.type(screen.getByLabelText(UI_LOGIN.email), '  Ana@Patio.es ');
    await userEvent.type(screen.getByLabelText(UI_LOGIN.password), 'contraseña-1');
  };

  it('logs in, stores the session and toasts success', async () => {
    const fetch = mockFetch(() => json(200, { status: 'approved', access_token: 'tok-1', user }));
    render(<AuthForm mode="login" onPending={vi.fn()} />);
    await fill();
    await submit(UI_LOGIN.submitLogin);
    expect(sentBody(fetch)).toEqual({ email: 'ana@patio.es', password: 'contraseña-1' });
    expect(useSession.getState()).toMatchObject({ status: 'authenticated', token: 'tok-1', user });
    expect(localStorage.getItem('torre.token')).toBe('tok-1');
    expect(toast.success).toHaveBeenCalledWith(TOAST.loginOk);
  });

  it('disables the submit button while the request is in flight', async () => {
    let answer!: (r: Response) => void;
    mockFetch(() => new Promise<Response>((r) => (answer = r)));
    render(<AuthForm mode="login" onPending={vi.fn()} />);
    await fill();
    await submit(UI_LOGIN.submitLogin);
    const button = screen.getByRole('button', { name: UI_LOGIN.submittingLogin });
    expect(button).toBeDisabled();
    answer(json(401, { detail: ERR.invalidCredentials }));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: UI_LOGIN.submitLogin })).toBeEnabled());
  });

  it("shows the server's detail on failure, and the fallback when there is none", async () => {
    const fetch = mockFetch(() => json(401, { detail: ERR.invalidCredentials }));
    render(<AuthForm mode="login" onPending={vi.fn()} />);
    await fill();
    await submit(UI_LOGIN.submitLogin);
    expect(toast.error).toHaveBeenLastCalledWith(ERR.invalidCredentials);
    expect(useSession.getState().status).toBe('anonymous');

    fetch.mockResolvedValueOnce(new Response('<html>', { status: 502 }));
    await submit(UI_LOGIN.submitLogin);
    expect(toast.error).toHaveBeenLastCalledWith(TOAST.loginError);
  });

  it('sends a pending account to the pending screen with the SPEC toast', async () => {
    mockFetch(() => json(403, { detail: ERR.pendingApproval }));
    const onPending = vi.fn();
    render(<AuthForm mode="login" onPending={onPending} />);
    await fill();
    await submit(UI_LOGIN.submitLogin);
    expect(onPending).toHaveBeenCalledWith('ana@patio.es');
    expect(toast.info).toHaveBeenCalledWith(TOAST.pendingApproval);
    expect(toast.error).not.toHaveBeenCalled();
  });
});

describe('register form', () => {
  it('requires the name in register mode', async () => {
    const fetch = mockFetch(() => json(201, {}));
    render(<AuthForm mode="register" onPending={vi.fn()} />);
    await userEvent.type(screen.getByLabelText(UI_LOGIN.email), 'ana@patio.es');
    await userEvent.type(screen.getByLabelText(UI_LOGIN.password), 'contraseña-1');
    await submit(UI_LOGIN.submitRegister);
    expect(screen.getByText('El nombre es obligatorio')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('registers as conductor by default and shows the pending screen', async () => {
    const fetch = mockFetch(() => json(201, { status: 'pending_approval', access_token: null, user }));
    const onPending = vi.fn();
    render(<AuthForm mode="register" onPending={onPending} />);
    expect(screen.getByRole('combobox', { name: UI_LOGIN.role })).toHaveTextContent('Conductor');
    await userEvent.type(screen.getByLabelText(UI_LOGIN.name), 'Ana Pérez');
    await userEvent.type(screen.getByLabelText(UI_LOGIN.email), 'ana@patio.es');
    await userEvent.type(screen.getByLabelText(UI_LOGIN.password), 'contraseña-1');
    await submit(UI_LOGIN.submitRegister);
    expect(sentBody(fetch)).toEqual({
      name: 'Ana Pérez',
      email: 'ana@patio.es',
      password: 'contraseña-1',
      role: 'conductor',
    });
    expect(onPending).toHaveBeenCalledWith('ana@patio.es');
    expect(toast.success).toHaveBeenCalledWith(TOAST.registerPending);
    expect(useSession.getState().status).toBe('anonymous');
  });

  it('uses the register fallback when the server gives no detail', async () => {
    mockFetch(() => new Response('', { status: 500 }));
    render(<AuthForm mode="register" onPending={vi.fn()} />);
    await userEvent.type(screen.getByLabelText(UI_LOGIN.name), 'Ana');
    await userEvent.type(screen.getByLabelText(UI_LOGIN.email), 'ana@patio.es');
    await userEvent.type(screen.getByLabelText(UI_LOGIN.password), 'contraseña-1');
    await submit(UI_LOGIN.submitRegister);
    expect(toast.error).toHaveBeenCalledWith(TOAST.registerError);
  });
});
