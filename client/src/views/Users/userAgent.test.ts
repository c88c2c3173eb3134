import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './userAgent';

const UA = {
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70',
  firefoxLinux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/147.0.0.0 Safari/537.36',
};

describe('describeUserAgent (sessions dialog)', () => {
  it.each([
    [UA.chromeAndroid, 'Chrome · Android', true],
    [UA.safariIphone, 'Safari · iOS', true],
    [UA.chromeIphone, 'Chrome · iOS', true],
    [UA.edgeWindows, 'Edge · Windows', false],
    [UA.firefoxLinux, 'Firefox · Linux', false],
    [UA.safariMac, 'Safari · macOS', false],
    [UA.samsung, 'Samsung Internet · Android', true],
    [UA.headless, 'Chrome · Linux', false],
  ])('%s → %s', (ua, label, mobile) => {
    expect(describeUserAgent(ua)).toEqual({ label, mobile });
  });

  it('names a non-browser client by its product, and knows nothing of an empty one', () => {
    expect(describeUserAgent('curl/8.5.0').label).toBe('curl');
    expect(describeUserAgent(null)).toEqual({ label: null, mobile: false });
    expect(describeUserAgent('   ')).toEqual({ label: null, mobile: false });
  });
});
