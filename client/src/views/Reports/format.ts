import { LOCALE } from '@shared/constants';
import { UI_REPORTS } from '@shared/labels';

const minutesFmt = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });

/** Report delays come in minutes with one decimal: 12.5 → '12,5 min'. */
export const formatDelay = (minutes: number): string => UI_REPORTS.minutes(minutesFmt.format(minutes));
