// Spec sections 2, 6 and 8: a protected screen without a session shows the destructive toast
// 'Unauthorized' - 'You need to log in to access this page' and goes to /auth after 500 ms.
import { ShieldAlert } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { FullScreenLoading } from '@/components/layouts/full-screen-loading';
import { toast } from '@/hooks/use-toast';
import { safeReturnPath, signInPathFrom } from '@/lib/return-path';
import { wasSignedOutOnPurpose } from '@/lib/signed-out';
import { useUser } from '../api/get-user';

export const UNAUTHORIZED_REDIRECT_MS = 500;

export function ProtectedRoute({ children }: { children: ReactNode }) {
  const user = useUser();
  const navigate = useNavigate();
  const location = useLocation();
  const unauthorized = !user.isLoading && !user.data;
  // Back here after signing in (an invitation link opened while signed out, say).
  const signIn = signInPathFrom(location);

  useEffect(() => {
    if (!unauthorized) return;
    // After Logout, or a 401 already announced as 'You are logged out': go, without a second message.
    if (wasSignedOutOnPurpose()) {
      navigate('/auth', { replace: true });
      return;
    }
    toast({
      variant: 'destructive',
      title: 'Unauthorized',
      description: 'You need to log in to access this page',
    });
    const timer = setTimeout(() => navigate(signIn, { replace: true }), UNAUTHORIZED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [unauthorized, navigate, signIn]);

  if (user.isLoading) return <FullScreenLoading />;
  if (!user.data) {
    return (
      <div className="flex min-h-screen items-center justify-center px-6">
        <div className="flex items-center gap-3 text-sm text-muted-foreground" role="status">
          <ShieldAlert className="size-5 text-destructive" aria-hidden="true" />
          Redirecting to sign in...
        </div>
      </div>
    );
  }
  return children;
}

/** /auth: a signed-in user goes straight to the dashboard (or to ?next=, a screen of ours). */
export function PublicOnlyRoute({ children }: { children: ReactNode }) {
  const user = useUser();
  const [params] = useSearchParams();
  if (user.isLoading) return <FullScreenLoading />;
  if (user.data) return <Navigate to={safeReturnPath(params.get('next'))} replace />;
  return children;
}
