// 'Delete Domain' with a confirmation (DELETE /api/domains/:id). Success: 'Domain deleted successfully';
// failure: an 'Error' toast with the server's message (spec section 8).
import type { Domain } from '@csp/shared/schemas/domain';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { useDeleteDomain } from '../api/delete-domain';

export function DeleteDomainButton({
  domain,
  onDeleted,
  onDeleting,
}: {
  domain: Domain;
  onDeleted: () => void;
  /** Told true when the deletion is confirmed and sent, false if it failed: a screen stops reading meanwhile. */
  onDeleting?: (deleting: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  const deleteMutation = useDeleteDomain({
    onSuccess: () => {
      setOpen(false);
      toast({ title: 'Success', description: 'Domain deleted successfully' });
      onDeleted();
    },
    onError: (error) => {
      setOpen(false);
      onDeleting?.(false);
      toast({
        variant: 'destructive',
        title: 'Error',
        description: (error instanceof ApiError && error.serverMessage) || error.message,
      });
    },
  });
  return (
    <>
      <Button
        variant="outline"
        className="text-destructive hover:bg-red-50 hover:text-destructive"
        onClick={() => setOpen(true)}
      >
        <Trash2 aria-hidden="true" />
        Delete Domain
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          if (!deleteMutation.isPending) setOpen(next);
        }}
        title="Delete this domain?"
        description={
          <>
            <span className="font-medium text-foreground">{domain.name}</span> and all of its analyses and
            security reports will be deleted permanently. This cannot be undone.
          </>
        }
        confirmLabel="Delete Domain"
        destructive
        pending={deleteMutation.isPending}
        onConfirm={() => {
          onDeleting?.(true);
          deleteMutation.mutate(domain.id);
        }}
      />
    </>
  );
}
