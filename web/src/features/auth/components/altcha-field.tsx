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
  /** Back to unverified (a solution is accepted once by the server). */
  reset: () => void;
}

export interface AltchaFieldProps {
  /** Called with the payload once verified, and with null when it is no longer valid. */
  onPayloadChange: (payload: string | null) => void;
  ref?: Ref<AltchaFieldHandle>;
  id?: string;
}

type StateChangeDetail = { state: string; payload?: string | null };

export function AltchaField({ onPayloadChange, ref, id }: AltchaFieldProps) {
  const widget = useRef<AltchaWidgetElement>(null);
  const callback = useRef(onPayloadChange);
  callback.current = onPayloadChange;

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const onStateChange = (event: Event) => {
      const { state, payload } = (event as CustomEvent<StateChangeDetail>).detail;
      callback.current(state === 'verified' && payload ? payload : null);
    };
    element.addEventListener('statechange', onStateChange);
    return () => element.removeEventListener('statechange', onStateChange);
  }, []);

  useImperativeHandle(ref, () => ({
    reset: () => {
      widget.current?.reset();
      callback.current(null);
    },
  }));

  return (
    <altcha-widget
      ref={widget}
      id={id}
      challenge={ALTCHA_CHALLENGE_URL}
      name="altcha"
      auto="off"
      type="checkbox"
      display="standard"
      configuration={JSON.stringify({ hideFooter: false, hideLogo: false, credentials: 'same-origin' })}
    />
  );
}
