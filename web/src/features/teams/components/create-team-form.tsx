// Settings › Team without a team (spec section 2): 'Create a Team' — name, slug ('Used in URLs and team
// identification'), description, maximum members (2 to 50; not a number → 5). The slug follows the name
// until the user edits it.
import { maxMembersOf, TEAM_LIMITS, teamCreateSchema } from '@csp/shared/schemas/team';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input, Textarea } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { type FieldErrors, focusFirstInvalid, serverFormErrors, validateForm } from '@/lib/validation';
import { useCreateTeam } from '../api/teams';

/** "Acme Web Agency!" → "acme-web-agency". */
const slugFrom = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, TEAM_LIMITS.slugMax)
    .replace(/-+$/, '');

export function CreateTeamForm() {
  const [values, setValues] = useState({
    name: '',
    slug: '',
    description: '',
    maxMembers: String(TEAM_LIMITS.membersDefault),
  });
  const [slugEdited, setSlugEdited] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreateTeam();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateForm(teamCreateSchema, values);
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setErrors({});
    // mutateAsync: once the team exists this form is replaced by the team's view, and React Query skips
    // the callbacks of a mutation whose component is gone.
    create.mutateAsync(result.data).then(
      () => toast({ title: 'Team created', description: 'Your team has been created successfully.' }),
      (error: Error) => {
        // What the server refused, at its field (a taken slug) or above the button; the toast names a
        // refusal that concerns no field (e.g. already in a team), else the spec's text.
        const formErrors = serverFormErrors(error);
        setErrors(formErrors);
        toast({
          variant: 'destructive',
          title: 'Error',
          description: formErrors.form ?? 'Failed to create team. Please try again.',
        });
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Create a Team</CardTitle>
        <CardDescription>
          Invite colleagues or clients: they see your domains, analyses and reports, read-only.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="Create a Team">
          <div className="grid gap-5 sm:grid-cols-2">
            <Field id="team-name" label="Team Name" error={errors.name}>
              <Input
                name="name"
                value={values.name}
                maxLength={TEAM_LIMITS.nameMax}
                onChange={(e) => {
                  const name = e.target.value;
                  setValues((v) => ({ ...v, name, slug: slugEdited ? v.slug : slugFrom(name) }));
                }}
              />
            </Field>
            <Field
              id="team-slug"
              label="Team Slug"
              error={errors.slug}
              hint="Used in URLs and team identification"
            >
              <Input
                name="slug"
                value={values.slug}
                maxLength={TEAM_LIMITS.slugMax}
                autoCapitalize="none"
                spellCheck={false}
                onChange={(e) => {
                  setSlugEdited(true);
                  setValues((v) => ({ ...v, slug: e.target.value }));
                }}
              />
            </Field>
          </div>
          <Field id="team-description" label="Description" error={errors.description}>
            <Textarea
              name="description"
              rows={3}
              value={values.description}
              maxLength={TEAM_LIMITS.descriptionMax}
              onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
            />
          </Field>
          <Field
            id="team-max-members"
            label="Maximum Members"
            error={errors.maxMembers}
            hint={`${TEAM_LIMITS.membersMin} to ${TEAM_LIMITS.membersMax}, you included.`}
          >
            <Input
              name="maxMembers"
              type="number"
              inputMode="numeric"
              min={TEAM_LIMITS.membersMin}
              max={TEAM_LIMITS.membersMax}
              value={values.maxMembers}
              className="max-w-32"
              onChange={(e) => setValues((v) => ({ ...v, maxMembers: e.target.value }))}
              onBlur={() => setValues((v) => ({ ...v, maxMembers: String(maxMembersOf(v.maxMembers)) }))}
            />
          </Field>
          <FormError message={errors.form} />
          <Button type="submit" loading={create.isPending} className="self-start">
            {create.isPending ? 'Creating...' : 'Create Team'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
