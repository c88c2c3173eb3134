// The alert sound (Web Audio, no files) and the mute switch of the header, remembered across reloads.
// Browsers only let audio start after a user gesture: the first click or key press unlocks it. After a
// reload nothing has been touched yet, so `locked` says the driver must tap once (CONTRACT §16).
import { create } from 'zustand';
import { prefs } from './storage';

const MUTE_PREF = 'muted';

interface SoundState {
  muted: boolean;
  /** The browser refused to start audio (no gesture yet on this page): alerts would be silent. */
  locked: boolean;
  toggleMuted: () => void;
}

export const useSound = create<SoundState>((set, get) => ({
  muted: prefs.get(MUTE_PREF, false),
  locked: false,
  toggleMuted() {
    const muted = !get().muted;
    prefs.set(MUTE_PREF, muted);
    set({ muted });
    if (!muted) playAlert();
  },
}));

let ctx: AudioContext | null = null;
function audio(): AudioContext | null {
  if (typeof window === 'undefined' || !('AudioContext' in window)) return null;
  if (!ctx) {
    const created = new AudioContext();
    const follow = () => useSound.setState({ locked: created.state === 'suspended' });
    created.addEventListener?.('statechange', follow);
    ctx = created;
    follow();
  }
  return ctx;
}

/** Resumes the audio context from a gesture (the `Toca para activar el sonido` button, any first tap). */
export function unlockAudio(): void {
  const ac = audio();
  if (!ac) return;
  void ac
    .resume()
    .then(() => useSound.setState({ locked: ac.state === 'suspended' }))
    .catch(() => undefined);
}

/**
 * Called once at start: creates the audio context at once, so a page that was reloaded (no gesture
 * yet) knows the browser holds audio back, and the first gesture resumes it for later alerts.
 */
export function unlockAudioOnFirstGesture(): void {
  audio();
  const unlock = () => {
    unlockAudio();
    window.removeEventListener('pointerdown', unlock);
    window.removeEventListener('keydown', unlock);
  };
  window.addEventListener('pointerdown', unlock);
  window.addEventListener('keydown', unlock);
}

/** Tests only: forget the audio context (a fake one per test). */
export function resetAudioForTests(): void {
  ctx = null;
  useSound.setState({ locked: false });
}

let alertsPlayed = 0;

/** A short rising two-tone chime, loud enough for a yard. Does nothing when muted; returns whether it played. */
export function playAlert(): boolean {
  if (useSound.getState().muted) return false;
  // Browser tests read <html data-alerts-played> to see that an alert fired without hearing it.
  document.documentElement.dataset.alertsPlayed = String(++alertsPlayed);
  const ac = audio();
  if (!ac) return false;
  // Never awaited: without a prior gesture the context stays suspended and the chime is skipped.
  if (ac.state === 'suspended') void ac.resume().catch(() => undefined);
  const start = ac.currentTime + 0.01;
  [880, 1320].forEach((freq, i) => {
    const t = start + i * 0.18;
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.5, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.35);
    osc.connect(gain).connect(ac.destination);
    osc.start(t);
    osc.stop(t + 0.4);
  });
  return true;
}
