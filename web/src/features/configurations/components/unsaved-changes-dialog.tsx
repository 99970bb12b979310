// The question asked before unsaved changes to a configuration are dropped: by leaving the screen, or by
// opening New or another saved configuration in the panel. Staying is the default (Escape, the backdrop).
import { ConfirmDialog } from '@/components/ui/dialog';

const WORDS = {
  leave: {
    title: 'Leave without saving?',
    consequence: 'If you leave this page now, they are lost.',
    confirm: 'Leave without saving',
    cancel: 'Stay',
  },
  switch: {
    title: 'Discard unsaved changes?',
    consequence: 'Opening another configuration discards them.',
    confirm: 'Discard changes',
    cancel: 'Keep editing',
  },
} as const;

export function UnsavedChangesDialog({
  open,
  action,
  name,
  onStay,
  onDiscard,
}: {
  open: boolean;
  action: keyof typeof WORDS;
  /** The configuration's name as typed; empty for a new one without a name yet. */
  name: string;
  onStay: () => void;
  onDiscard: () => void;
}) {
  const words = WORDS[action];
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onStay();
      }}
      title={words.title}
      description={
        <span data-testid="unsaved-changes-dialog">
          Your changes to{' '}
          {name.trim() ? (
            <span className="font-medium text-foreground">{name.trim()}</span>
          ) : (
            'this new configuration'
          )}{' '}
          are not saved. {words.consequence}
        </span>
      }
      confirmLabel={words.confirm}
      cancelLabel={words.cancel}
      destructive
      onConfirm={onDiscard}
    />
  );
}
