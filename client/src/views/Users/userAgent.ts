// A session's user agent, shortened for the sessions dialog: `Chrome · Android`, `Safari · iOS`.
// Browser and system names are product names (not translated); order matters, since most browsers
// also claim to be Safari and Chrome.

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\b(Headless)?Chrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const MOBILE = /\b(Mobile|Android|iPhone|iPad|iPod)\b/;

export interface DeviceSummary {
  /** `Chrome · Android`; null when nothing is recognisable (the caller says "unknown device"). */
  label: string | null;
  mobile: boolean;
}

export function describeUserAgent(ua: string | null): DeviceSummary {
  if (!ua?.trim()) return { label: null, mobile: false };
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  const parts = [browser, system].filter(Boolean);
  // Not a browser (curl/8.5.0, a script): its first product name.
  const label = parts.length ? parts.join(' · ') : (/^[A-Za-z][\w.-]*/.exec(ua.trim())?.[0] ?? null);
  return { label, mobile: MOBILE.test(ua) };
}
