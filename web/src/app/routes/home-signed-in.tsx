// '/' for a signed-in user: the dashboard in the signed-in frame (one module, loaded only when needed).
import { DashboardRoute } from './dashboard';
import { SignedInLayout } from './signed-in-layout';

export function SignedInHome() {
  return (
    <SignedInLayout>
      <DashboardRoute />
    </SignedInLayout>
  );
}
