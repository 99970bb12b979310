// What the crawler does to a page after it loaded and scrolled: act on it as a visitor would, so resources
// that appear only after a click, a hover or a choice are captured too (a document viewer's sidebar
// thumbnails, a menu's icon font, a tab's chart library). Runs in the page as one script, within a time
// budget. Safety lives in two places: here (never a link, a submit button or a button whose label
// sounds destructive; dialogs answered "cancel"; window.open and form submission swallowed) and in the
// capture (every main-frame navigation is blocked and every request other than GET/HEAD is answered by the
// crawler, never sent) — so a crawl cannot delete, like or order anything whatever the page's code does.
import * as z from 'zod';

/**
 * Time a page may take to be acted on. Most pages need a fraction of it (the script stops when every
 * candidate was tried); it is generous so that a busy machine does not act on fewer controls — a budget
 * that runs out is reported (the capture is retried with more time), never silently cut short.
 */
export const DEFAULT_INTERACTION_BUDGET_MS = 4_000;
/** Hovers per page at most: menus and tooltips show on the first few; a long link list adds nothing. */
export const MAX_HOVERS = 30;
/** Actions per page at most: the budget bounds time, this bounds pages with thousands of controls. */
export const MAX_ACTIONS = 80;
/**
 * Same-page paging ("next", a carousel's arrow, page numbers): this many controls, each pressed this many
 * times in a row (what only page 3 of a document or slide 3 of a carousel needs shows up then).
 */
export const PAGING_CONTROLS = 3;
export const PAGING_STEPS = 3;
/** After an action, the page counts as quiet after this long without a DOM change, frame or short timer. */
export const ACTION_QUIET_MS = 30;
/** One action's wait for quiet at most (a timer of up to QUIET_TIMER_MS and its aftermath fit). */
export const ACTION_QUIET_MAX_MS = 1_500;
/**
 * Waiting after actions takes at most this share of the budget, so a page whose every control starts an
 * animation still has all its controls tried (then without waiting), not a budget run out.
 */
export const ACTION_QUIET_SHARE = 0.5;
/** Pages a page's actions may lead to, at most (a script navigating on a timer must not flood the frontier). */
export const MAX_OPENED = 100;

export const interactionResultSchema = z.object({
  actions: z.number().int(),
  /** The time budget ran out before every candidate was tried (MAX_ACTIONS reached is not that). */
  exhausted: z.boolean(),
  /**
   * URLs the page tried to open: in a new window (window.open, swallowed) or in this one (a navigation it
   * started, blocked by the capture). At most MAX_OPENED.
   */
  opened: z.array(z.string()).max(MAX_OPENED),
  /** The page was quiet (no DOM change, frame or short timer) when acting ended; absent without helpers. */
  quiet: z.boolean().optional(),
});
export type InteractionResult = z.infer<typeof interactionResultSchema>;

/**
 * Labels of controls the crawler never presses, even with writes answered by the crawler: a GET that
 * deletes or signs out exists on real sites.
 */
const DESTRUCTIVE_LABEL = String.raw`\b(delete|remove|destroy|erase|log ?out|sign ?out|unsubscribe|cancel (my )?(account|subscription)|buy|order|pay|checkout|purchase|confirm|submit|send|post|publish|like|follow|vote|report)\b`;

/**
 * Same-page paging controls, by label. A bare "More" is not paging: it is as often a menu, or a link
 * dressed as a button. These are RegExp objects in Node and reach the page through their `source`: a
 * regular expression written inside the page script's template literal loses its backslashes (`\s` there
 * is just "s"), which once left "Next slide" and every page number unrecognised.
 */
export const NEXT_LABEL =
  /^(next|next page|next slide|load more|show more|older|newer|older posts|newer posts|\u203a|\u00bb|\u2192|>|>>|\u276f|\u25b6)$/i;
/** "next" as a word of an aria-label. */
export const NEXT_WORD = /\bnext\b/i;
/** "next" as one token of a `rel` or `class` (carousel-next, slick-next, next_btn). */
export const NEXT_TOKEN = /(^|[\s_-])next([\s_-]|$)/i;
/** A page number of a pagination. */
export const PAGE_NUMBER = /^\d{1,3}$/;
/** Runs of white space in a label. */
const SPACES = /\s+/g;

/** A regular expression as page-script source text. */
function inPage(re: RegExp): string {
  return `new RegExp(${JSON.stringify(re.source)}, ${JSON.stringify(re.flags)})`;
}

export interface InteractionOptions {
  maxActions?: number;
  /**
   * An expression for the instrument's helpers in the page (InstrumentChannel.helpersExpression): with
   * them each action is followed by a wait for quiet; without (a page loaded for enforcement), by a task
   * turn now and then.
   */
  helpers?: string;
}

/** The in-page script (plain ES2017 in a string: it runs in the page, not in Node). Resolves to an InteractionResult. */
export function interactionSource(budgetMs: number, options: InteractionOptions = {}): string {
  const budget = Math.max(0, Math.floor(budgetMs));
  return `(async function () {
  var deadline = Date.now() + ${budget};
  var maxActions = ${Math.max(0, Math.floor(options.maxActions ?? MAX_ACTIONS))};
  var helpers = ${options.helpers ?? 'null'};
  if (!helpers || typeof helpers.afterAction !== 'function') helpers = null;
  var quietLeft = ${Math.floor(budget * ACTION_QUIET_SHARE)};
  var hoversLeft = ${MAX_HOVERS};
  var destructive = new RegExp(${JSON.stringify(DESTRUCTIVE_LABEL)}, 'i');
  var opened = [];
  var actions = 0;
  // Dialogs would block the page's thread (and this script): answer them as a cautious visitor would.
  try { window.alert = function () {}; window.confirm = function () { return false; }; window.prompt = function () { return null; }; } catch (e) {}
  try { window.open = function (u) { if (u && opened.length < ${MAX_OPENED}) { try { opened.push(String(new URL(String(u), document.baseURI))); } catch (e) {} } return null; }; } catch (e) {}
  // A navigation the page starts (location.href in a click handler) is blocked by the capture, but its
  // request may reach the network only after acting ended; the Navigation API (Chromium) names it the
  // moment it starts. In-page changes (pushState, #hash), reloads, history moves and POSTed forms (writes,
  // not pages) are not pages to crawl.
  try {
    if (window.navigation && typeof window.navigation.addEventListener === 'function') {
      window.navigation.addEventListener('navigate', function (e) {
        if (e.formData || e.hashChange || (e.navigationType !== 'push' && e.navigationType !== 'replace')) return;
        if (!e.destination || e.destination.sameDocument || opened.length >= ${MAX_OPENED}) return;
        opened.push(String(e.destination.url));
      });
    }
  } catch (e) {}
  // Never submit: a click on a control inside a form must not send it (the capture blocks it as well).
  document.addEventListener('submit', function (e) { e.preventDefault(); }, true);
  // After each action the page's own reactions run: promise callbacks at once, and every few actions a
  // full task turn (timers, framework schedulers). What starts later is caught by the idle wait after.
  var turns = 0;
  var tick = function () {
    return ++turns % 8 === 0 ? new Promise(function (r) { setTimeout(r, 0); }) : Promise.resolve();
  };
  // With the instrument, each action is followed by a wait until the page is quiet (what the action
  // started — a fetch's rendering, a thumbnail drawn on a timer, an animation — has finished), within a
  // share of the budget; requests still in flight are waited for by the crawler after acting.
  // A hover passes when it started (see the instrument's afterAction): one that did nothing costs nothing.
  var settle = async function (since) {
    if (!helpers || quietLeft <= 0) return tick();
    var started = Date.now();
    await helpers.afterAction(${ACTION_QUIET_MS}, Math.max(0, Math.min(${ACTION_QUIET_MAX_MS}, quietLeft, deadline - started)), since);
    quietLeft -= Date.now() - started;
  };
  var now = function () { return helpers ? helpers.now() : 0; };
  // The result, with whether the page is quiet now (then the crawler need not wait for it once more).
  async function finish(exhausted) {
    var quiet = helpers ? await helpers.afterAction(${ACTION_QUIET_MS}, Math.max(0, Math.min(${ACTION_QUIET_MAX_MS}, quietLeft, deadline + 500 - Date.now()))) : undefined;
    return { actions: actions, exhausted: exhausted, opened: opened, quiet: quiet };
  }
  function label(el) {
    return ((el.getAttribute('aria-label') || '') + ' ' + (el.getAttribute('title') || '') + ' ' + (el.textContent || '') + ' ' + (el.value && typeof el.value === 'string' ? el.value : '')).slice(0, 200);
  }
  function isSafe(el) {
    if (!el || !el.isConnected || el.closest('[hidden],[inert]')) return false;
    if (destructive.test(label(el))) return false;
    var tag = el.localName;
    if (tag === 'a') {
      var href = el.getAttribute('href');
      // Toggles written as links: no href, '#', '#id' (in-page) or javascript: (inline code we capture anyway).
      return href === null || href === '' || href.charAt(0) === '#' || /^\\s*javascript:/i.test(href);
    }
    if (tag === 'input') return /^(button|checkbox|radio)$/i.test(el.type);
    if (tag === 'button') {
      var type = (el.getAttribute('type') || '').toLowerCase();
      if (type === 'submit' || type === 'reset') return false;
      // A button without type inside a form is a submit button.
      if (type !== 'button' && el.form) return false;
    }
    return !el.disabled;
  }
  var done = new Set();
  async function act(el, how) {
    if (actions >= maxActions || Date.now() > deadline || done.has(el) || !isSafe(el)) return;
    done.add(el);
    actions++;
    try { how(el); } catch (e) {}
    await settle();
  }
  var click = function (el) { el.click(); };
  var hover = function (el) {
    var opts = { bubbles: true, cancelable: true, view: window };
    el.dispatchEvent(new PointerEvent('pointerover', opts));
    el.dispatchEvent(new MouseEvent('mouseover', opts));
    el.dispatchEvent(new MouseEvent('mouseenter', { bubbles: false, view: window }));
    if (typeof el.focus === 'function') el.focus({ preventScroll: true });
    el.dispatchEvent(new MouseEvent('mouseout', opts));
    el.dispatchEvent(new MouseEvent('mouseleave', { bubbles: false, view: window }));
  };
  var choose = function (el) {
    if (el.options.length < 2) return;
    el.selectedIndex = (el.selectedIndex + 1) % el.options.length;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  };
  function all(selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); }
  // Same-page paging: "next" controls (by label, aria-label, rel or a carousel's class) pressed a few
  // times in a row, each press once the page is quiet again; then a few page numbers of a pagination.
  var NEXT_LABEL = ${inPage(NEXT_LABEL)};
  var NEXT_WORD = ${inPage(NEXT_WORD)};
  var NEXT_TOKEN = ${inPage(NEXT_TOKEN)};
  var PAGE_NUMBER = ${inPage(PAGE_NUMBER)};
  var SPACES = ${inPage(SPACES)};
  var PAGEABLE = 'button, [role="button"], a, input[type="button"]';
  function pagingLabel(el) {
    return (el.getAttribute('aria-label') || el.getAttribute('title') || el.textContent || el.value || '').replace(SPACES, ' ').trim().slice(0, 40);
  }
  function isNext(el) {
    return NEXT_LABEL.test(pagingLabel(el)) || NEXT_WORD.test(el.getAttribute('aria-label') || '') ||
      NEXT_TOKEN.test(el.getAttribute('rel') || '') || NEXT_TOKEN.test(el.getAttribute('class') || '');
  }
  function usable(el) { return isSafe(el) && el.getAttribute('aria-disabled') !== 'true'; }
  async function pageThrough() {
    var controls = all(PAGEABLE).filter(function (el) { return isNext(el) && usable(el); }).slice(0, ${PAGING_CONTROLS});
    for (var c = 0; c < controls.length; c++) {
      var el = controls[c];
      var name = pagingLabel(el);
      for (var k = 0; k < ${PAGING_STEPS}; k++) {
        if (actions >= maxActions || Date.now() > deadline) return;
        // A re-rendered pager replaces its controls: the same control is found again by its label.
        if (!el.isConnected) el = all(PAGEABLE).filter(function (e) { return isNext(e) && pagingLabel(e) === name; })[0];
        if (!el || !usable(el)) break;
        done.add(el);
        actions++;
        try { el.click(); } catch (e) {}
        await settle();
      }
    }
    var numbers = all('.pagination *, [class*="pagination" i] *, [aria-label*="pagination" i] *, [role="navigation"] *')
      .filter(function (el) { return el.matches(PAGEABLE) && PAGE_NUMBER.test(pagingLabel(el)); });
    for (var n = 0, pressed = 0; n < numbers.length && pressed < ${PAGING_CONTROLS}; n++) {
      if (!usable(numbers[n]) || done.has(numbers[n])) continue;
      pressed++;
      await act(numbers[n], click);
    }
  }
  // Most revealing first: disclosures and tabs open hidden content; choices load dependent content; then
  // any other same-page control; hover and focus last (menus, tooltips).
  var steps = [
    ['details:not([open]) > summary', click],
    ['[aria-expanded="false"]', click],
    ['[role="tab"]:not([aria-selected="true"])', click],
    ['[aria-haspopup]:not([aria-expanded]), [data-toggle], [data-bs-toggle]', click],
    ['select:not([multiple]):not([disabled])', choose],
    ['button, [role="button"], input[type="button"], input[type="checkbox"], input[type="radio"], [onclick]', click],
    ['[role="menuitem"], [onmouseover], [onmouseenter], [onfocus], nav a, [title], button, input', hover],
  ];
  for (var s = 0; s < steps.length; s++) {
    // Paging comes before the other buttons: clicking them first would leave it a changed page.
    if (steps[s][0].indexOf('button, [role="button"]') === 0) {
      await pageThrough();
      if (actions >= maxActions) return finish(false);
      if (Date.now() > deadline) return finish(true);
    }
    var list = all(steps[s][0]);
    for (var i = 0; i < list.length; i++) {
      if (actions >= maxActions) return finish(false);
      if (Date.now() > deadline) return finish(true);
      var el = list[i];
      if (steps[s][1] === hover) {
        if (hoversLeft <= 0) break;
        // Hovering is harmless even on a real link (nothing is followed).
        if (el.localName !== 'a' && !isSafe(el)) continue;
        hoversLeft--;
        actions++;
        var hoveredAt = now();
        try { hover(el); } catch (e) {}
        await settle(hoveredAt);
        continue;
      }
      await act(el, steps[s][1]);
    }
  }
  return finish(false);
})()`;
}
