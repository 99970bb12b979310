// Copies text: the async Clipboard API where the page may use it, else a hidden textarea and the legacy
// copy command (non-secure origins, older browsers). Rejects when neither worked.

/** Spec section 8's plain success text for a copy (the policy and the 2FA key have their own). */
export const COPIED_TOAST = { title: 'Copied to clipboard' } as const;

export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Permission refused or document not focused: try the legacy path below.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'fixed top-0 left-0 size-px opacity-0';
  // Inside a modal dialog the rest of the page is inert (nothing there can be selected or copied): the
  // textarea goes into the dialog the copy was asked from.
  const host = document.activeElement?.closest('dialog[open]') ?? document.body;
  host.append(area);
  area.select();
  try {
    const copied = document.execCommand('copy');
    if (!copied) throw new Error('The browser refused to copy');
  } finally {
    area.remove();
  }
}
