import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { PUSH_MSG, PUSH_UI } from '@shared/labels';
import { json, mockFetch, sentBody } from '../../test/http';
import { ENDPOINT, KEYS, servePush, stubPush } from '../../test/push';
import { PushButton } from './PushButton';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const posts = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter(([url, init]) => init?.method === 'POST' && String(url).endsWith('/subscriptions'));
const button = () => screen.queryByRole('button', { name: PUSH_UI.staffEnable });

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete (navigator as unknown as Record<string, unknown>).serviceWorker;
  delete (window as unknown as Record<string, unknown>).isSecureContext;
});

describe('PushButton: staff turn avisos on from the header (CONTRACT §23)', () => {
  it('subscribes: asks the browser, posts endpoint and keys, toasts the server, then goes away', async () => {
    const push = stubPush();
    const fetch = servePush();
    render(<PushButton />);
    await userEvent.click(button()!);
    await waitFor(() => expect(posts(fetch)).toHaveLength(1));
    expect(push.requestPermission).toHaveBeenCalledTimes(1);
    expect(sentBody(fetch, fetch.mock.calls.indexOf(posts(fetch)[0]))).toEqual({
      endpoint: ENDPOINT,
      keys: KEYS,
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(PUSH_MSG.subscribed));
    expect(button()).not.toBeInTheDocument();
  });

  it('the browser refuses: says notifications are blocked and goes away; nothing is posted', async () => {
    const push = stubPush({ answer: 'denied' });
    const fetch = servePush();
    render(<PushButton />);
    await userEvent.click(button()!);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(PUSH_UI.deniedTitle));
    expect(push.pushManager.subscribe).not.toHaveBeenCalled();
    expect(posts(fetch)).toHaveLength(0);
    expect(button()).not.toBeInTheDocument();
  });

  it('the server refuses: its reason in a toast, the button stays to try again', async () => {
    stubPush();
    servePush({ subscribe: json(400, { detail: 'Servicio de avisos no admitido' }) });
    render(<PushButton />);
    await userEvent.click(button()!);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Servicio de avisos no admitido'));
    expect(toast.success).not.toHaveBeenCalled();
    await waitFor(() => expect(button()).toBeEnabled());
  });

  it('already allowed: no button, the subscription is renewed quietly', async () => {
    const push = stubPush({ permission: 'granted', existing: true });
    const fetch = servePush();
    render(<PushButton />);
    expect(button()).not.toBeInTheDocument();
    await waitFor(() => expect(posts(fetch)).toHaveLength(1));
    expect(push.requestPermission).not.toHaveBeenCalled();
  });

  it('blocked before, or a browser without push: nothing shown, nothing sent', () => {
    stubPush({ permission: 'denied' });
    const fetch = servePush();
    const { container, unmount } = render(<PushButton />);
    expect(container).toBeEmptyDOMElement();
    unmount();
    vi.unstubAllGlobals();
    delete (navigator as unknown as Record<string, unknown>).serviceWorker;
    const bare = render(<PushButton />);
    expect(bare.container).toBeEmptyDOMElement();
    expect(fetch).not.toHaveBeenCalled();
  });
});
