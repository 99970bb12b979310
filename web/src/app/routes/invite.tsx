// /invite/:token: accepting a team invitation (signed in; sign-in comes back here).
import { useParams } from 'react-router-dom';
import { InvitationScreen } from '@/features/teams/components/invitation-screen';

export function InviteRoute() {
  const { token = '' } = useParams();
  return <InvitationScreen token={token} />;
}
