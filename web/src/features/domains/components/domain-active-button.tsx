// Activate or deactivate a domain: an inactive one is not scanned and its violation reports are refused.
import type { Domain } from '@csp/shared/schemas/domain';
import { Power } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { useUpdateDomain } from '../api/update-domain';

export function DomainActiveButton({ domain }: { domain: Domain }) {
  const update = useUpdateDomain(domain.id);
  const next = !domain.isActive;
  return (
    <Button
      variant="outline"
      loading={update.isPending}
      data-testid="domain-active-toggle"
      onClick={() =>
        update.mutate(
          { isActive: next },
          {
            onSuccess: () => toast({ title: next ? 'Domain activated' : 'Domain deactivated' }),
            onError: (error) => {
              toast({
                variant: 'destructive',
                title: 'Error',
                description:
                  error instanceof ApiError ? (error.serverMessage ?? error.message) : error.message,
              });
            },
          },
        )
      }
    >
      {update.isPending ? null : <Power aria-hidden="true" />}
      {next ? 'Activate' : 'Deactivate'}
    </Button>
  );
}
