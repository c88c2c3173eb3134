import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { PUSH_MSG, PUSH_UI } from '@shared/labels';
import { json, mockFetch, sentBody } from '../../test/http';
import { ENDPOINT, KEYS, servePush, stubPush } from '../../test/push';
import { PUSH_PREF, PushPrompt } from './PushPrompt';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const serve = (subscribe?: Response) => servePush({ subscribe });

const posts = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter(([url, init]) => init?.method === 'POST' && String(url).endsWith('/subscriptions'));

const offer = () => screen.queryByTestId('push-prompt');
const denied = () => screen.queryByTestId('push-denied');

beforeEach(() => {
  localStorage.clear();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  for (const key of ['serviceWorker', 'userAgent', 'standalone'])
    delete (navigator as unknown as Record<string, unknown>)[key];
  delete (window as unknown as Record<string, unknown>).isSecureContext;
  localStorage.clear();
});

describe('PushPrompt: `Activar avisos` offered once (CONTRACT §16)', () => {
  it('granted: posts endpoint and keys, toasts the server, and the card never comes back', async () => {
    const push = stubPush();
    const fetch = serve();
    const view = render(<PushPrompt />);
    expect(offer()).toHaveTextContent(PUSH_UI.offerWhy);
    await userEvent.click(screen.getByRole('button', { name: PUSH_UI.enable }));

    await waitFor(() => expect(offer()).not.toBeInTheDocument());
    expect(push.requestPermission).toHaveBeenCalledTimes(1);
    expect(posts(fetch)).toHaveLength(1);
    expect(sentBody(fetch, fetch.mock.calls.indexOf(posts(fetch)[0]))).toEqual({
      endpoint: ENDPOINT,
      keys: KEYS,
    });
    expect(toast.success).toHaveBeenCalledWith(PUSH_MSG.subscribed);

    view.rerender(<PushPrompt />);
    expect(offer()).not.toBeInTheDocument();
    view.unmount();
    render(<PushPrompt />);
    expect(offer()).not.toBeInTheDocument();
    expect(denied()).not.toBeInTheDocument();
    // The new mount finds the permission granted: it only re-registers the same subscription, quietly.
    await waitFor(() => expect(posts(fetch)).toHaveLength(2));
    expect(push.requestPermission).toHaveBeenCalledTimes(1);
    expect(offer()).not.toBeInTheDocument();
  });

  it('the browser refuses: explains how to allow notifications in its settings; Entendido is remembered', async () => {
    const push = stubPush({ answer: 'denied' });
    const fetch = serve();
    const view = render(<PushPrompt />);
    await userEvent.click(screen.getByRole('button', { name: PUSH_UI.enable }));

    expect(await screen.findByTestId('push-denied')).toHaveTextContent(PUSH_UI.deniedTitle);
    expect(denied()).toHaveTextContent(PUSH_UI.deniedHow);
    expect(offer()).not.toBeInTheDocument();
    expect(push.pushManager.subscribe).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: PUSH_UI.dismiss }));
    expect(denied()).not.toBeInTheDocument();
    view.unmount();
    render(<PushPrompt />);
    expect(denied()).not.toBeInTheDocument();
    expect(offer()).not.toBeInTheDocument();
  });

  it('blocked before: the explanation shows at once, without asking the browser', () => {
    const push = stubPush({ permission: 'denied' });
    serve();
    render(<PushPrompt />);
    expect(denied()).toHaveTextContent(PUSH_UI.deniedHowInstalled);
    expect(offer()).not.toBeInTheDocument();
    expect(push.requestPermission).not.toHaveBeenCalled();
  });

  it('`Ahora no`: gone, and gone for good on this phone', async () => {
    const push = stubPush();
    const fetch = serve();
    const view = render(<PushPrompt />);
    await userEvent.click(screen.getByRole('button', { name: PUSH_UI.notNow }));
    expect(offer()).not.toBeInTheDocument();
    expect(localStorage.getItem(`torre.pref.${PUSH_PREF.offer}`)).toBe('1');
    view.unmount();
    render(<PushPrompt />);
    expect(offer()).not.toBeInTheDocument();
    expect(push.requestPermission).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('already granted: no card, and the subscription is posted once', async () => {
    const push = stubPush({ permission: 'granted', existing: true });
    const fetch = serve();
    const view = render(<PushPrompt />);
    expect(offer()).not.toBeInTheDocument();
    await waitFor(() => expect(posts(fetch)).toHaveLength(1));
    view.rerender(<PushPrompt />);
    await act(async () => {});
    expect(posts(fetch)).toHaveLength(1);
    expect(sentBody(fetch, fetch.mock.calls.indexOf(posts(fetch)[0]))).toEqual({
      endpoint: ENDPOINT,
      keys: KEYS,
    });
    expect(push.requestPermission).not.toHaveBeenCalled();
    expect(offer()).not.toBeInTheDocument();
  });

  it('the server refuses: its reason in a toast, the card stays to try again', async () => {
    stubPush();
    serve(json(500, { detail: 'Error interno del servidor' }));
    render(<PushPrompt />);
    await userEvent.click(screen.getByRole('button', { name: PUSH_UI.enable }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error interno del servidor'));
    expect(toast.success).not.toHaveBeenCalled();
    expect(offer()).toBeInTheDocument();
    expect(screen.getByRole('button', { name: PUSH_UI.enable })).toBeEnabled();
  });

  it('no push in this browser (no service worker): nothing shown, nothing sent', () => {
    const fetch = serve();
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
    const { container } = render(<PushPrompt />);
    expect(container).toBeEmptyDOMElement();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('an iPhone tab: a hint to add the app to the home screen, dismissible and remembered', async () => {
    serve();
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
    Object.defineProperty(navigator, 'userAgent', {
      configurable: true,
      value:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    });
    const view = render(<PushPrompt />);
    expect(screen.getByTestId('push-ios')).toHaveTextContent(PUSH_UI.iosHint);
    expect(offer()).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: PUSH_UI.dismiss }));
    expect(screen.queryByTestId('push-ios')).not.toBeInTheDocument();
    view.unmount();
    render(<PushPrompt />);
    expect(screen.queryByTestId('push-ios')).not.toBeInTheDocument();
  });
});
