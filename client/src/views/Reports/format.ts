import { formatDuration } from '@shared/time';

/** Report delays come in minutes (one decimal): written as every duration is (CONTRACT §15), 389.3 → '6 h 29 min'. */
export const formatDelay = (minutes: number): string => formatDuration(minutes * 60_000);
