// The alert sound (Web Audio, no files) and the mute switch of the header, remembered across reloads.
// Browsers only let audio start after a user gesture: the first click or key press unlocks it.
import { create } from 'zustand';
import { prefs } from './storage';

const MUTE_PREF = 'muted';

export const useSound = create<{ muted: boolean; toggleMuted: () => void }>((set, get) => ({
  muted: prefs.get(MUTE_PREF, false),
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
  ctx ??= new AudioContext();
  return ctx;
}

/** Called once at start: the first gesture resumes the audio context so later alerts can play. */
export function unlockAudioOnFirstGesture(): void {
  const unlock = () => {
    void audio()?.resume();
    window.removeEventListener('pointerdown', unlock);
    window.removeEventListener('keydown', unlock);
  };
  window.addEventListener('pointerdown', unlock);
  window.addEventListener('keydown', unlock);
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
