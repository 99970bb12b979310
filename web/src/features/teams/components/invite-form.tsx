// Owner only (spec section 2): 'Invite Team Members' — an email and 'Send Invite' ('Sending...'). Without a
// mail server the invitation is still made: its link is copied, and Pending Invitations keeps it.
import { invitationCreateSchema } from '@csp/shared/schemas/team';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { copyText } from '@/lib/clipboard';
import { type FieldErrors, validateForm } from '@/lib/validation';
import { useInvite } from '../api/teams';

export function InviteForm({ teamId }: { teamId: string }) {
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const invite = useInvite(teamId);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateForm(invitationCreateSchema, { email });
    if (!result.success) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    invite.mutate(result.data.email, {
      onSuccess: async (sent) => {
        setEmail('');
        if (sent.emailSent) {
          toast({ title: 'Invitation sent', description: 'Team invitation has been sent successfully.' });
          return;
        }
        const copied = await copyText(sent.link).then(
          () => true,
          () => false,
        );
        toast({
          title: 'Invitation created',
          description: `${copied ? 'Its link is copied: send' : 'Copy its link from Pending Invitations and send'} it to ${sent.email}.`,
        });
      },
      onError: (error) => {
        const message = error instanceof ApiError && error.status < 500 ? error.serverMessage : undefined;
        if (message) setErrors({ email: message });
        toast({
          variant: 'destructive',
          title: 'Error',
          description: message ?? 'Failed to send invitation. Please try again.',
        });
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite Team Members</CardTitle>
        <CardDescription>
          They accept with the link, signed in with this email address. It is valid for 7 days.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <Field id="invite-email" label="Email" error={errors.email} className="flex-1">
            <Input
              name="email"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Field>
          <Button type="submit" loading={invite.isPending} className="self-start sm:mt-7">
            {invite.isPending ? 'Sending...' : 'Send Invite'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
