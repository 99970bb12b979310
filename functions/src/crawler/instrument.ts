// The script the crawler runs at the start of every document of a crawled page (all frames, before any
// site script). It gathers what only the page can see and streams it to the crawler through a CDP binding:
// - every `securitypolicyviolation` of the policy we injected (the browser's own classification), the
//   Trusted Types dry run's among them (bounded: one per place in the code),
// - the names the page's code passes to trustedTypes.createPolicy (for a `trusted-types` directive),
// - inline code as written in the DOM (script/style bodies, on*= handlers, style= attributes, javascript:
//   URLs), caught by a MutationObserver so code that is inserted and removed again is not missed,
// - navigation-like targets no request reveals until a user acts (form actions, <base>, manifests, media,
//   objects), and the page's links for discovery,
// - when the page is quiet: it wraps the page's timers and animation frames (before any site script can
//   take them) and watches DOM changes, so the crawler can wait until work an action started has finished.
import { TRUSTED_TYPES_LIMITS, TRUSTED_TYPES_POLICY_NAME } from '@csp/shared/schemas/trusted-types';
import * as z from 'zod';

/**
 * A timer the page sets for at most this long holds "quiet" back (a thumbnail drawn 300 ms after a click);
 * a longer one is a poll or an autoplay, not work that finishes.
 */
export const QUIET_TIMER_MS = 1_000;

/** What the instrument sends; parsed with zod on the Node side (a page can call the binding too). */
export const instrumentItemSchema = z.discriminatedUnion('k', [
  z.object({
    k: z.literal('violation'),
    directive: z.string(),
    blocked: z.string(),
    sample: z.string(),
    sourceFile: z.string(),
    line: z.number(),
    column: z.number(),
    document: z.string(),
  }),
  z.object({
    k: z.literal('inline'),
    directive: z.enum(['script-src-elem', 'style-src-elem', 'script-src-attr', 'style-src-attr']),
    text: z.string(),
    document: z.string(),
  }),
  z.object({ k: z.literal('javascript-url'), url: z.string(), document: z.string() }),
  /** A name the page passed to trustedTypes.createPolicy (already checked as a tt-policy-name). */
  z.object({ k: z.literal('policy-name'), name: z.string(), document: z.string() }),
  z.object({ k: z.literal('target'), directive: z.string(), url: z.string(), document: z.string() }),
]);
export type InstrumentItem = z.infer<typeof instrumentItemSchema>;

/**
 * A violation of the capture's Trusted Types dry run (`require-trusted-types-for`; `trusted-types` for
 * policy names): what enforcing Trusted Types would block, not a source a policy should allow nor a
 * violation of a policy being verified.
 */
export function isTrustedTypesViolation(item: InstrumentItem): boolean {
  return (
    item.k === 'violation' &&
    (item.directive === 'require-trusted-types-for' || item.directive === 'trusted-types')
  );
}

/**
 * Places in the code (sink, script, line, column) whose Trusted Types violations one document reports; a
 * loop writing innerHTML reports once per value, and the dry run needs each place once.
 */
export const TRUSTED_TYPES_PLACES_PER_DOCUMENT = 500;

export const instrumentBatchSchema = z.array(instrumentItemSchema);

/** A batch the page's instrument sent (page input: anything not a valid batch is dropped), or []. */
export function parseInstrumentBatch(payload: string): InstrumentItem[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return [];
  }
  const batch = instrumentBatchSchema.safeParse(parsed);
  return batch.success ? batch.data : [];
}

/**
 * Builds the instrument's source. `binding` is the CDP binding's name, `flushName` the hidden global the
 * crawler calls to drain everything pending (in this frame and its same-origin subframes) and get the
 * page's links; `policy` is the exact policy text we injected, so violations of the site's own <meta>
 * policies are not mistaken for observations.
 */
export function instrumentSource(options: {
  binding: string;
  flushName: string;
  policy: string;
  /**
   * Firefox reports the policy text rewritten ('none' added to an empty source list…), so there a violation
   * is told ours by its disposition instead: report-only, in a document of this origin (whose own CSP
   * headers were set aside for ours, and a <meta> policy cannot be report-only).
   */
  reportOnlyOrigin?: string;
}): string {
  const config = JSON.stringify(options);
  const trustedTypes = JSON.stringify({
    places: TRUSTED_TYPES_PLACES_PER_DOCUMENT,
    names: TRUSTED_TYPES_LIMITS.policyNames,
    nameChars: TRUSTED_TYPES_LIMITS.policyNameChars,
    name: TRUSTED_TYPES_POLICY_NAME.source,
  });
  // Plain ES2017 in a string: it runs in the page, not in Node, and must not depend on the page's globals
  // after it started (sites overwrite them).
  return `(function () {
  var cfg = ${config};
  var tt = ${trustedTypes};
  var send = window[cfg.binding];
  if (typeof send !== 'function' || window[cfg.flushName]) return;
  try { delete window[cfg.binding]; } catch (e) {}
  var stringify = JSON.stringify;
  // The browser's own timers and frames, taken before the quiet tracker below wraps them: the
  // instrument's (and the crawler's) own waiting must not count as the page's work.
  var nativeSetTimeout = window.setTimeout;
  var nativeClearTimeout = window.clearTimeout;
  var nativeClearInterval = window.clearInterval;
  var nativeFrame = window.requestAnimationFrame;
  var nativeCancelFrame = window.cancelAnimationFrame;
  var perf = window.performance;
  var perfNow = function () { return perf.now(); };
  var seen = new Set();
  var queue = [];
  var timer = null;
  var Wait = Promise;
  // Batches handed over and not yet taken: Firefox's exposed function answers with a promise settled once
  // the crawler has run on the batch (a few messages later, longer on a busy machine); Chromium's binding
  // answers nothing. The flush waits for them, so what it drained is in the crawler's hands when it ends.
  var sending = new Set();
  var docUrl = function () { return String(document.URL); };
  function emit(item) {
    var key = stringify(item);
    if (seen.has(key)) return;
    seen.add(key);
    queue.push(item);
    if (queue.length >= 200) drain();
    else if (timer === null) timer = nativeSetTimeout.call(window, drain, 50);
  }
  function drain() {
    if (timer !== null) { nativeClearTimeout.call(window, timer); timer = null; }
    if (queue.length === 0) return;
    var batch = queue;
    queue = [];
    try {
      var sent = send(stringify(batch));
      if (sent && typeof sent.then === 'function') {
        var taken = Wait.resolve(sent).then(function () { sending.delete(taken); }, function () { sending.delete(taken); });
        sending.add(taken);
      }
    } catch (e) {}
  }
  var ttPlaces = new Set();
  // Trusted Types policy names, as the page's code creates them: the call goes through unchanged (same
  // arguments, same result or error); a name that is not a string is not read (no toString of ours).
  try {
    var factory = window.TrustedTypePolicyFactory && window.TrustedTypePolicyFactory.prototype;
    var described = factory && Object.getOwnPropertyDescriptor(factory, 'createPolicy');
    if (described && typeof described.value === 'function') {
      var nativeCreatePolicy = described.value;
      var policyName = new RegExp(tt.name);
      var policyNames = new Set();
      described.value = function createPolicy(name) {
        if (typeof name === 'string' && name.length <= tt.nameChars && policyName.test(name) && !policyNames.has(name) && policyNames.size < tt.names) {
          policyNames.add(name);
          emit({ k: 'policy-name', name: name, document: docUrl() });
        }
        return nativeCreatePolicy.apply(this, arguments);
      };
      Object.defineProperty(factory, 'createPolicy', described);
    }
  } catch (e) {}
  var JS_TYPES = /^(|text\\/javascript|application\\/javascript|text\\/ecmascript|application\\/ecmascript|module|importmap|speculationrules|text\\/jscript|text\\/livescript|application\\/x-javascript|text\\/x-javascript)$/i;

  document.addEventListener('securitypolicyviolation', function (e) {
    // Only the browser's own: a page's script can dispatch a SecurityPolicyViolationEvent it made up, naming any
    // source (isTrusted cannot be forged), and the generator would allow it.
    if (!e.isTrusted) return;
    if (e.originalPolicy !== cfg.policy && !(cfg.reportOnlyOrigin && e.disposition === 'report' && location.origin === cfg.reportOnlyOrigin)) return;
    if (e.effectiveDirective === 'require-trusted-types-for') {
      var sample = String(e.sample || '');
      var place = sample.split('|')[0] + ' ' + e.sourceFile + ':' + e.lineNumber + ':' + e.columnNumber;
      if (ttPlaces.has(place) || ttPlaces.size >= tt.places) return;
      ttPlaces.add(place);
    }
    emit({ k: 'violation', directive: String(e.effectiveDirective), blocked: String(e.blockedURI), sample: String(e.sample || ''),
      sourceFile: String(e.sourceFile || ''), line: Number(e.lineNumber) || 0, column: Number(e.columnNumber) || 0, document: docUrl() });
  }, true);

  function attrs(el) {
    var list = el.attributes;
    for (var i = 0; i < list.length; i++) attr(el, list[i].name, list[i].value);
  }
  function attr(el, name, value) {
    name = name.toLowerCase();
    if (name.length > 2 && name.charCodeAt(0) === 111 && name.charCodeAt(1) === 110) {
      emit({ k: 'inline', directive: 'script-src-attr', text: value, document: docUrl() });
    } else if (name === 'style') {
      emit({ k: 'inline', directive: 'style-src-attr', text: value, document: docUrl() });
    } else if ((name === 'href' || name === 'src' || name === 'action' || name === 'formaction') && /^\\s*javascript:/i.test(value)) {
      emit({ k: 'javascript-url', url: value.trim(), document: docUrl() });
    }
  }
  function target(directive, url) {
    if (url) emit({ k: 'target', directive: directive, url: String(url), document: docUrl() });
  }
  function text(el) {
    var tag = el.localName;
    if (tag === 'script' && !el.hasAttribute('src') && JS_TYPES.test((el.getAttribute('type') || '').trim())) {
      var t = el.text;
      if (t) emit({ k: 'inline', directive: 'script-src-elem', text: t, document: docUrl() });
    } else if (tag === 'style') {
      var s = el.textContent;
      if (s) emit({ k: 'inline', directive: 'style-src-elem', text: s, document: docUrl() });
    }
  }
  function element(el) {
    attrs(el);
    var tag = el.localName;
    if (tag === 'script' || tag === 'style') { text(el); pendingText.push(el); }
    else if (tag === 'form') target('form-action', el.action);
    else if ((tag === 'button' || tag === 'input') && el.hasAttribute('formaction')) target('form-action', el.formAction);
    else if (tag === 'base' && el.hasAttribute('href')) target('base-uri', el.href);
    else if (tag === 'link' && /(^|\\s)manifest(\\s|$)/i.test(el.rel || '')) target('manifest-src', el.href);
    else if (tag === 'object' && el.data) target('object-src', el.data);
    else if (tag === 'embed' && el.src) target('object-src', el.src);
    else if ((tag === 'video' || tag === 'audio' || tag === 'track') && el.src) target('media-src', el.src);
    else if (tag === 'source' && el.src && el.parentElement && /^(video|audio)$/.test(el.parentElement.localName)) target('media-src', el.src);
  }
  function tree(node) {
    if (node.nodeType !== 1) return;
    element(node);
    var all = node.getElementsByTagName('*');
    for (var i = 0; i < all.length; i++) element(all[i]);
  }
  // Script and style text arrives after the element itself while parsing: read it again a moment later.
  var pendingText = [];
  function rereadText() {
    var list = pendingText;
    pendingText = [];
    for (var i = 0; i < list.length; i++) text(list[i]);
  }
  // Quiet (settle.ts waits for it after load and after each action): no DOM change, no animation frame
  // and no short timer pending for a while. Timers and frames are counted as the page schedules them; the
  // wrappers pass every call through unchanged, and a string handler is not wrapped at all (the browser
  // must still check it as eval). A timer or frame overdue by STALL ms (a throttled tab) no longer counts;
  // a longer timer (a poll, a carousel's autoplay) is not waited for.
  var SHORT_TIMER = ${QUIET_TIMER_MS};
  var STALL = 250;
  var lastChange = perfNow();
  var timers = new Map();
  var frames = new Map();
  try {
    window.setTimeout = function setTimeout(handler, delay) {
      var wait = Number(delay) || 0;
      if (typeof handler !== 'function' || wait > SHORT_TIMER) return nativeSetTimeout.apply(window, arguments);
      var args = Array.prototype.slice.call(arguments);
      var id;
      args[0] = function () { timers.delete(id); lastChange = perfNow(); return handler.apply(this, arguments); };
      id = nativeSetTimeout.apply(window, args);
      timers.set(id, perfNow() + wait);
      return id;
    };
    window.clearTimeout = function clearTimeout(id) { timers.delete(id); return nativeClearTimeout.call(window, id); };
    window.clearInterval = function clearInterval(id) { timers.delete(id); return nativeClearInterval.call(window, id); };
    window.requestAnimationFrame = function requestAnimationFrame(callback) {
      if (typeof callback !== 'function') return nativeFrame.apply(window, arguments);
      var id = nativeFrame.call(window, function (t) { frames.delete(id); lastChange = perfNow(); return callback(t); });
      frames.set(id, perfNow());
      return id;
    };
    window.cancelAnimationFrame = function cancelAnimationFrame(id) { frames.delete(id); return nativeCancelFrame.call(window, id); };
  } catch (e) {}
  function scheduled(t) {
    var busy = false;
    timers.forEach(function (due) { if (t < due + STALL) busy = true; });
    frames.forEach(function (at) { if (t < at + STALL) busy = true; });
    return busy;
  }
  function quietNow(windowMs) {
    var t = perfNow();
    return t - lastChange >= windowMs && !scheduled(t);
  }
  /** Resolves to true once the page was quiet for windowMs, false when maxMs passed first. */
  function quiet(windowMs, maxMs) {
    var end = perfNow() + maxMs;
    return new Promise(function (resolve) {
      (function check() {
        onMutations(observer.takeRecords());
        if (quietNow(windowMs)) return resolve(true);
        var t = perfNow();
        if (t >= end) return resolve(false);
        nativeSetTimeout.call(window, check, Math.max(4, Math.min(windowMs / 2, end - t)));
      })();
    });
  }
  /**
   * After an action: what the action changed at once is its own doing, not work in progress. When one
   * task turn later nothing more changed and no timer or frame is pending, the page is quiet already;
   * otherwise it is waited for as after load. With \`since\` (when the action started, perf time), an
   * action that changed and scheduled nothing is done at once.
   */
  function afterAction(windowMs, maxMs, since) {
    var records = observer.takeRecords();
    onMutations(records);
    var before = lastChange;
    // A hover that changed nothing and scheduled nothing needs no task turn (there are dozens of them).
    if (since !== undefined && lastChange < since && !scheduled(perfNow())) return Promise.resolve(true);
    return new Promise(function (resolve) {
      nativeSetTimeout.call(window, function () {
        onMutations(observer.takeRecords());
        if (lastChange === before && !scheduled(perfNow())) resolve(true);
        else quiet(windowMs, maxMs).then(resolve);
      }, 0);
    });
  }
  function onMutations(records) {
    if (records.length > 0) lastChange = perfNow();
    for (var i = 0; i < records.length; i++) {
      var r = records[i];
      if (r.type === 'childList') {
        for (var j = 0; j < r.addedNodes.length; j++) tree(r.addedNodes[j]);
        if (r.target && r.target.nodeType === 1 && (r.target.localName === 'script' || r.target.localName === 'style')) text(r.target);
      } else if (r.type === 'attributes' && r.target.nodeType === 1 && r.target.hasAttribute(r.attributeName)) {
        attr(r.target, r.attributeName, r.target.getAttribute(r.attributeName));
      } else if (r.type === 'characterData' && r.target.parentElement) {
        var p = r.target.parentElement;
        if (p.localName === 'script' || p.localName === 'style') text(p);
      }
    }
    if (pendingText.length) nativeSetTimeout.call(window, rereadText, 0);
  }
  var observer = new MutationObserver(onMutations);
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });

  function links() {
    var out = [];
    var anchors = document.querySelectorAll('a[href], area[href]');
    for (var i = 0; i < anchors.length && out.length < 5000; i++) {
      var href = anchors[i].href;
      if (typeof href === 'string' && /^https?:/i.test(href)) out.push(href);
    }
    return out;
  }
  // The browser dispatches securitypolicyviolation events in tasks of their own, while the crawler's
  // evaluate (a DevTools message) can overtake queued tasks: on a busy machine a violation already
  // decided may still wait in the queue. A flush first lets every task queued before it run (two rounds
  // of message tasks, which the scheduler orders after tasks already queued at the same priority).
  var Channel = window.MessageChannel;
  var timer0 = nativeSetTimeout;
  // Settles once every promise of the list has, or after ms: what never answers must not hold the step.
  function allWithin(list, ms) {
    return Wait.race([Wait.all(list), new Wait(function (r) { timer0.call(window, r, ms); })]);
  }
  function afterQueuedTasks() {
    return new Wait(function (resolve) {
      var rounds = 0;
      var channel = new Channel();
      channel.port1.onmessage = function () {
        if (++rounds < 2) channel.port2.postMessage(0);
        else { channel.port1.close(); resolve(); }
      };
      channel.port2.postMessage(0);
    });
  }
  function flushNow() {
    onMutations(observer.takeRecords());
    if (document.documentElement) tree(document.documentElement);
    rereadText();
    drain();
  }
  Object.defineProperty(window, cfg.flushName, {
    enumerable: false,
    value: function (withLinks) {
      var frames = [];
      for (var i = 0; i < window.frames.length; i++) {
        try { var f = window.frames[i][cfg.flushName]; if (typeof f === 'function') frames.push(f(false)); } catch (e) {}
      }
      return afterQueuedTasks().then(function () {
        flushNow();
        var handed = [];
        sending.forEach(function (p) { handed.push(p); });
        // A frame being torn down may never answer: it gets a moment, not the whole step's time limit.
        return Wait.all([allWithin(frames, 1000), allWithin(handed, 5000)]);
      }).then(function () {
        return withLinks ? links() : [];
      });
    },
  });
  // For the crawler's steps (settle.ts, interact.ts), under the flush's secret name.
  var flush = window[cfg.flushName];
  flush.quiet = quiet;
  flush.afterAction = afterAction;
  flush.now = perfNow;
  flush.later = function (callback, ms) { return nativeSetTimeout.call(window, callback, ms); };
})();`;
}
