// /settings (spec section 2): 'Back to Dashboard' and the tabs Profile (default), Security, API tokens and Team
// (?tab=team opens it: the invitation page sends a new member there). The team tab's content comes from
// the route, which composes the teams feature into it.
import type { PublicUser } from '@csp/shared/schemas/auth';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '@/components/layouts/app-layout';
import { BackLink } from '@/components/ui/back-link';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ApiTokensCard } from './api-tokens-card';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { TwoFactorCard } from './two-factor-card';

const TABS = ['profile', 'security', 'api-tokens', 'team'] as const;
type Tab = (typeof TABS)[number];

export function SettingsScreen({ user, teamTab }: { user: PublicUser; teamTab: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: Tab = TABS.find((t) => t === asked) ?? 'profile';
  const setTab = (next: Tab) => setParams(next === 'profile' ? {} : { tab: next }, { replace: true });
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <BackLink />
      <PageHeader
        title="Settings"
        description="Your profile, password, two-factor authentication, API tokens and team."
      />
      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
        <TabsList label="Settings" className="self-start">
          <TabsTrigger value="profile">Profile</TabsTrigger>
          <TabsTrigger value="security">Security</TabsTrigger>
          <TabsTrigger value="api-tokens">API tokens</TabsTrigger>
          <TabsTrigger value="team">Team</TabsTrigger>
        </TabsList>
        <TabsContent value="profile">
          <Card>
            <CardHeader>
              <CardTitle>Profile</CardTitle>
              <CardDescription>How you appear in the product and where it can reach you.</CardDescription>
            </CardHeader>
            <CardContent>
              {/* Keyed by the account's state: the form starts from what the server says after a change. */}
              <ProfileForm key={user.updatedAt} user={user} />
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="security" className="flex flex-col gap-6">
          <PasswordForm />
          <TwoFactorCard user={user} />
        </TabsContent>
        <TabsContent value="api-tokens" className="flex flex-col gap-6">
          <ApiTokensCard />
        </TabsContent>
        <TabsContent value="team" className="flex flex-col gap-6">
          {teamTab}
        </TabsContent>
      </Tabs>
    </div>
  );
}
