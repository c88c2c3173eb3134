// Whether the server answers (CONTRACT §16): the last request's fate. Any HTTP answer, even an error,
// proves the server is there; a request that could not be sent or got no answer in time says it is not.
// The offline indicator and the replay of queued actions follow this, not `navigator.onLine` (a phone on
// a yard Wi-Fi with no route to the server is "online" for the browser).
import { create } from 'zustand';

export const useReachability = create<{ reachable: boolean }>(() => ({ reachable: true }));

export function reportReachable(reachable: boolean): void {
  if (useReachability.getState().reachable !== reachable) useReachability.setState({ reachable });
}
