// The colour of every role, state and priority, in one place (CONTRACT §11, SPEC §9). Badges, cards and
// tables take their tone from here; the class strings are complete so Tailwind sees them.
import type { HealthStatus, Priority, Role, TaskStatus, VehicleType } from '@shared/enums';
import { DELAY_ORANGE_MIN, DELAY_RED_MIN, FULL_SHIFT_HOURS } from '@shared/constants';

export type Tone =
  'slate' | 'red' | 'orange' | 'amber' | 'yellow' | 'green' | 'teal' | 'sky' | 'blue' | 'indigo' | 'purple';

/** Soft badge look: tinted background, dark text, hairline ring. */
export const BADGE_TONE: Record<Tone, string> = {
  slate: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  red: 'bg-red-50 text-red-700 ring-red-600/20',
  orange: 'bg-orange-50 text-orange-700 ring-orange-600/20',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/25',
  yellow: 'bg-yellow-50 text-yellow-800 ring-yellow-600/25',
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  teal: 'bg-teal-50 text-teal-700 ring-teal-600/20',
  sky: 'bg-sky-50 text-sky-700 ring-sky-600/20',
  blue: 'bg-blue-50 text-blue-700 ring-blue-600/20',
  indigo: 'bg-indigo-50 text-indigo-700 ring-indigo-600/20',
  purple: 'bg-purple-50 text-purple-700 ring-purple-600/20',
};

/** Icon chips and accents (stat cards, list markers). */
export const ACCENT_TONE: Record<Tone, string> = {
  slate: 'bg-slate-100 text-slate-600',
  red: 'bg-red-100 text-red-600',
  orange: 'bg-orange-100 text-orange-600',
  amber: 'bg-amber-100 text-amber-600',
  yellow: 'bg-yellow-100 text-yellow-700',
  green: 'bg-emerald-100 text-emerald-600',
  teal: 'bg-teal-100 text-teal-600',
  sky: 'bg-sky-100 text-sky-600',
  blue: 'bg-blue-100 text-blue-600',
  indigo: 'bg-indigo-100 text-indigo-600',
  purple: 'bg-purple-100 text-purple-600',
};

export const ROLE_TONE: Record<Role, Tone> = {
  admin: 'red',
  gestor: 'blue',
  manager: 'purple',
  conductor: 'green',
};

export const STATUS_TONE: Record<TaskStatus, Tone> = {
  bolsa_trabajo: 'amber',
  en_proceso: 'blue',
  finalizada: 'green',
};

export const PRIORITY_TONE: Record<Priority, Tone> = { high: 'red', normal: 'sky', low: 'slate' };

export const VEHICLE_TONE: Record<VehicleType, Tone> = {
  semiremolque: 'indigo',
  semiremolque_out_km0: 'teal',
  swap: 'orange',
};

export const HEALTH_TONE: Record<HealthStatus, Tone> = { healthy: 'green', warning: 'yellow', error: 'red' };

/** SPEC §2: severity 2 is red, any other alert yellow. */
export const alertTone = (severity: number): Tone => (severity === 2 ? 'red' : 'yellow');

/** SPEC §9 delay colouring: over 30 min red, over 20 orange, otherwise yellow. */
export const delayTone = (minutes: number): Tone =>
  minutes > DELAY_RED_MIN ? 'red' : minutes > DELAY_ORANGE_MIN ? 'orange' : 'yellow';

/** SPEC §9: 8 worked hours or more green, less yellow. */
export const hoursTone = (hours: number): Tone => (hours >= FULL_SHIFT_HOURS ? 'green' : 'yellow');
