import { LogOut } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { useLogout } from '../api/logout';

/** Logging out (POST /api/logout, clear the cache, go to /auth; on failure a 'Logout Failed' toast). */
export function useLogoutAction() {
  const navigate = useNavigate();
  const logoutMutation = useLogout({
    // Awaited: the cache is cleared once the navigation is done.
    onSuccess: () => navigate('/auth', { replace: true }),
    onError: (error) => {
      console.error('Logout failed', error);
      toast({
        variant: 'destructive',
        title: 'Logout Failed',
        description: 'There was an error logging out. Please try again.',
      });
    },
  });
  return { run: () => logoutMutation.mutate(), isPending: logoutMutation.isPending };
}

/** The dashboard's 'Logout' button. */
export function LogoutButton() {
  const logout = useLogoutAction();
  return (
    <Button variant="outline" onClick={logout.run} loading={logout.isPending}>
      {logout.isPending ? null : <LogOut aria-hidden="true" />}
      Logout
    </Button>
  );
}
