import { describe, expect, it } from 'vitest';
import { countEngines, engineFamily, onlyEngine } from './user-agent';

// Real user agent strings, as browsers send them.
const UAS = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  opera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36 OPR/115.0.0.0',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/147.0.0.0 Safari/537.36',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxEsrLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  firefoxIos:
    'Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
  curl: 'curl/8.5.0',
  googlebot: 'Googlebot/2.1 (+http://www.google.com/bot.html)',
};

describe('engineFamily', () => {
  it.each([
    ['chromeWindows', 'chromium'],
    ['chromeAndroid', 'chromium'],
    ['edge', 'chromium'],
    ['opera', 'chromium'],
    ['samsung', 'chromium'],
    ['headless', 'chromium'],
    ['firefoxWindows', 'firefox'],
    ['firefoxEsrLinux', 'firefox'],
    ['firefoxAndroid', 'firefox'],
    ['safariMac', 'safari'],
    ['safariIphone', 'safari'],
    // Every iOS browser runs WebKit: its CSP is Safari's.
    ['chromeIos', 'safari'],
    ['firefoxIos', 'safari'],
    ['curl', 'other'],
    ['googlebot', 'other'],
  ] as const)('%s → %s', (name, family) => {
    expect(engineFamily(UAS[name])).toBe(family);
  });

  it('missing, empty or huge user agents are handled, and only the first 512 characters are read', () => {
    expect(engineFamily(null)).toBe('other');
    expect(engineFamily(undefined)).toBe('other');
    expect(engineFamily('')).toBe('other');
    expect(engineFamily(`${'x'.repeat(600)}${UAS.firefoxWindows}`)).toBe('other');
    const start = performance.now();
    expect(engineFamily('AppleWebKit/'.repeat(100_000))).toBe('other');
    expect(performance.now() - start).toBeLessThan(500);
  });
});

describe('countEngines / onlyEngine', () => {
  it('counts per family and names the one engine when every report agrees', () => {
    const counts = countEngines([UAS.firefoxWindows, UAS.firefoxAndroid, UAS.firefoxEsrLinux]);
    expect(counts).toEqual({ chromium: 0, firefox: 3, safari: 0, other: 0 });
    expect(onlyEngine(counts)).toBe('firefox');
    expect(onlyEngine(countEngines([UAS.safariMac, UAS.chromeIos]))).toBe('safari');
  });

  it('no single engine when engines mix, when a user agent is unknown, or when there are no reports', () => {
    expect(onlyEngine(countEngines([UAS.firefoxWindows, UAS.chromeWindows]))).toBeNull();
    expect(onlyEngine(countEngines([UAS.firefoxWindows, null]))).toBeNull();
    expect(onlyEngine(countEngines([]))).toBeNull();
  });
});
