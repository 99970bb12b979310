// Copying with the toasts that say how it went: one place for the failure text ("Copy Failed" and what
// could not be copied, spec section 9) so every copy button reads the same.
import { COPIED_TOAST, copyText } from '@/lib/clipboard';
import { type ToastInput, toast } from './use-toast';

/**
 * Copies `text`; toasts `copied` when it worked, else 'Copy Failed' naming `what` ("the token"). True when
 * copied.
 */
export async function copyWithToast(
  text: string,
  what: string,
  copied: ToastInput = COPIED_TOAST,
): Promise<boolean> {
  try {
    await copyText(text);
    toast(copied);
    return true;
  } catch {
    toast({
      variant: 'destructive',
      title: 'Copy Failed',
      description: `Failed to copy ${what} to clipboard.`,
    });
    return false;
  }
}
