// The /auth screen shows itself before its forms' modules are there (they bring the verification widget and
// the schemas): its texts are on screen while a form's module is held back, and the form's place is kept at
// the form's height, so nothing below it moves when the form comes (a layout shift, and the largest text
// on a phone is below it). Both forms, at phone and desktop widths, on the real product server. The forms'
// modules are asked for once the screen's own module is there, not beside it: on a phone's network they
// shared its bandwidth, and the screen's largest text came after all of them.
import type { HTTPRequest } from 'puppeteer-core';
import { describe, expect, it, vi } from 'vitest';
import { describeTimings, intercepting, requestTimings, visibleText } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ signedIn: false });

const FORM_MODULE = /\/assets\/(login|register)-form-[^/]*\.js$/;

/** The top of the line below the card, and the height of the form's place. */
const measure = () =>
  t.page.evaluate(() => {
    const below = [...document.querySelectorAll('main p')].find((p) =>
      /New to CSP Generator\?|Already have an account\?/.test(p.textContent ?? ''),
    );
    const place =
      document.querySelector('[data-testid="auth-form-placeholder"]') ?? document.querySelector('main form');
    return {
      below: Math.round(below!.getBoundingClientRect().top + window.scrollY),
      place: Math.round(place!.getBoundingClientRect().height),
    };
  });

describe('the /auth screen before its forms', () => {
  for (const [mode, path, form] of [
    ['sign-in', '/auth', 'Sign in'],
    ['register', '/auth?mode=register', 'Create account'],
  ] as const) {
    for (const width of [390, 1440]) {
      it(`shows the screen at once and keeps the ${mode} form's place at its height (${width} px)`, async () => {
        await t.page.setViewport({ width, height: 900 });
        // Each load asks for the modules again (the previous test's are in the browser's cache).
        await t.page.setCacheEnabled(false);
        const held: HTTPRequest[] = [];
        let release: () => void = () => {};
        const released = new Promise<void>((ok) => {
          release = ok;
        });
        await intercepting(
          t.page,
          (request) => {
            if (FORM_MODULE.test(request.url())) {
              held.push(request);
              void released.then(() => request.continue());
            } else void request.continue();
          },
          async () => {
            await t.page.goto(`${t.server.url}${path}`, { waitUntil: 'domcontentloaded' });
            await t.page.waitForSelector('[data-testid="auth-form-placeholder"]');
            // The screen asks for the forms once it is there, so the request may come just after its place.
            await vi.waitFor(
              () => expect(held.length, 'the form modules were asked for').toBeGreaterThan(0),
              {
                timeout: 10_000,
              },
            );
            expect(await visibleText(t.page)).toContain('Get Started');
            expect(await visibleText(t.page)).toContain('Crawl-based analysis');
            const before = await measure();
            release();
            await t.page.waitForSelector(`form[aria-label="${form}"]`);
            // The widget draws itself a moment later: measured once it has.
            await t.page.waitForSelector('altcha-widget [data-state]');
            const after = await measure();
            expect(after.place, 'the form is as tall as its place was').toBe(before.place);
            expect(after.below, 'the text below did not move').toBe(before.below);
          },
        );
        await t.page.setCacheEnabled(true);
      });
    }
  }

  it("asks for the forms' modules once the screen's own module is there", async () => {
    await t.page.setCacheEnabled(false);
    try {
      await t.page.goto(`${t.server.url}/auth`, { waitUntil: 'load' });
      await t.page.waitForSelector('form[aria-label="Sign in"]');
      // A file is listed once its answer has ended: the other form's module may still be coming.
      await t.page.waitForFunction(
        (pattern: string) =>
          performance
            .getEntriesByType('resource')
            .filter((e) => new RegExp(pattern).test(new URL(e.name).pathname)).length === 2,
        { timeout: 15_000 },
        FORM_MODULE.source,
      );
    } finally {
      await t.page.setCacheEnabled(true);
    }
    const asked = await requestTimings(t.page);
    const shown = describeTimings(asked);
    // The screen's module is the first auth-* file asked for (the forms share another, asked with them).
    const screen = asked.find((a) => /^\/assets\/auth-[^/]*\.js$/.test(a.path));
    const forms = asked.filter((a) => FORM_MODULE.test(a.path));
    expect(screen, shown).toBeDefined();
    expect(forms, shown).toHaveLength(2);
    for (const form of forms) expect(form.at, shown).toBeGreaterThanOrEqual(screen!.end);
  });
});
