// The proof-of-work verification widget (ALTCHA v3, its CSP-friendly "external" build).
// The external build ships no inline styles and no inline (blob:) workers: its stylesheet is bundled with
// ours and each hashing worker is a file Vite emits beside the app, so script-src/worker-src 'self' hold.
// Only SHA-* and PBKDF2/* are registered: Argon2id and scrypt workers need WebAssembly ('wasm-unsafe-eval').
import 'altcha/external';
import 'altcha/altcha.css';
import type { AltchaWidgetElement } from 'altcha/types/generic';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import ShaWorker from 'altcha/workers/sha?worker';
import { type Ref, useEffect, useImperativeHandle, useRef } from 'react';

export const ALTCHA_CHALLENGE_URL = '/api/altcha-challenge';

for (const algorithm of ['SHA-256', 'SHA-384', 'SHA-512']) {
  globalThis.$altcha.algorithms.set(algorithm, () => new ShaWorker({ name: 'altcha-sha' }));
}
for (const algorithm of ['PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512']) {
  globalThis.$altcha.algorithms.set(algorithm, () => new Pbkdf2Worker({ name: 'altcha-pbkdf2' }));
}

export interface AltchaFieldHandle {
  /** Drops the spent solution (the server accepts each one once) and starts solving the next one. */
  reset: () => void;
  /** The payload once solved: at once when it is, else when the running (or a new) solve ends; null when
   *  the widget failed (e.g. the challenge could not be fetched). */
  solution: () => Promise<string | null>;
}

export interface AltchaFieldProps {
  /** Called with the payload once verified, and with null when it is no longer valid. */
  onPayloadChange: (payload: string | null) => void;
  ref?: Ref<AltchaFieldHandle>;
  id?: string;
}

type StateChangeDetail = { state: string; payload?: string | null };

/** States in which no solve runs: a solution asked for starts one. */
const IDLE = new Set(['unverified', 'expired', 'error']);

// The widget solves on its own as soon as it is shown (auto="onload"), again right after a solution was
// spent or expired, so whoever types their credentials finds it solved and never has to click it; a submit
// that comes first waits for the running solve (`solution()`).
export function AltchaField({ onPayloadChange, ref, id }: AltchaFieldProps) {
  const widget = useRef<AltchaWidgetElement>(null);
  const callback = useRef(onPayloadChange);
  callback.current = onPayloadChange;
  const solved = useRef<string | null>(null);
  const waiting = useRef<Array<(payload: string | null) => void>>([]);

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const settle = (payload: string | null) => {
      for (const resolve of waiting.current.splice(0)) resolve(payload);
    };
    const onStateChange = (event: Event) => {
      const { state, payload } = (event as CustomEvent<StateChangeDetail>).detail;
      solved.current = state === 'verified' && payload ? payload : null;
      callback.current(solved.current);
      if (solved.current) settle(solved.current);
      else if (state === 'error') settle(null);
      else if (state === 'expired') void element.verify();
    };
    element.addEventListener('statechange', onStateChange);
    return () => {
      element.removeEventListener('statechange', onStateChange);
      settle(null);
    };
  }, []);

  useImperativeHandle(ref, () => ({
    reset: () => {
      solved.current = null;
      widget.current?.reset();
      callback.current(null);
      void widget.current?.verify();
    },
    solution: () => {
      const element = widget.current;
      if (solved.current) return Promise.resolve(solved.current);
      if (!element) return Promise.resolve(null);
      const promise = new Promise<string | null>((resolve) => waiting.current.push(resolve));
      if (IDLE.has(element.getState())) void element.verify();
      return promise;
    },
  }));

  return (
    <altcha-widget
      ref={widget}
      id={id}
      challenge={ALTCHA_CHALLENGE_URL}
      name="altcha"
      auto="onload"
      type="checkbox"
      display="standard"
      configuration={JSON.stringify({ hideFooter: false, hideLogo: false, credentials: 'same-origin' })}
    />
  );
}
