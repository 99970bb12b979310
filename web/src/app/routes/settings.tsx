// /settings: the signed-in user's account (the signed-in layout guarantees a user).
import { FullScreenLoading } from '@/components/layouts/full-screen-loading';
import { TeamAlertsSection } from '@/features/alerts/components/team-alerts-section';
import { useUser } from '@/features/auth/api/get-user';
import { SettingsScreen } from '@/features/settings/components/settings-screen';
import { TeamTab } from '@/features/teams/components/team-tab';

export function SettingsRoute() {
  const user = useUser().data;
  if (!user) return <FullScreenLoading />;
  return (
    <SettingsScreen
      user={user}
      teamTab={<TeamTab user={user} alerts={(props) => <TeamAlertsSection {...props} />} />}
    />
  );
}
