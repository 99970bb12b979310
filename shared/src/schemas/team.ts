// Teams (spec sections 2 Team tab, 3, 6, 7): the create and invite forms, and what the API answers.
// The bounds the spec leaves open [9] are set here once: the API and the forms both read them.
import * as z from 'zod';

export const TEAM_LIMITS = {
  nameMax: 100,
  slugMin: 2,
  slugMax: 50,
  descriptionMax: 500,
  membersMin: 2,
  membersMax: 50,
  membersDefault: 5,
  /** An invitation can be accepted for 7 days. */
  invitationDays: 7,
  /** Invitations a team can have pending at once, so a team cannot be used to mass-mail. */
  pendingInvitationsMax: 50,
} as const;

/** A team has one owner; everyone invited joins as a member (spec section 6). */
export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/**
 * Spec section 5: the field is bounded 2 to 50 and non-numeric input becomes 5. Only a number or a string
 * is read: String() of a JSON object whose own `toString` is not a function throws.
 */
export function maxMembersOf(input: unknown): number {
  const n =
    typeof input === 'number' ? input : typeof input === 'string' ? Number.parseInt(input, 10) : Number.NaN;
  if (!Number.isFinite(n)) return TEAM_LIMITS.membersDefault;
  return Math.min(TEAM_LIMITS.membersMax, Math.max(TEAM_LIMITS.membersMin, Math.trunc(n)));
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const teamCreateSchema = z.object({
  name: z
    .string({ message: 'Team name is required' })
    .trim()
    .min(1, 'Team name is required')
    .max(TEAM_LIMITS.nameMax, `Team name must be at most ${TEAM_LIMITS.nameMax} characters`),
  slug: z
    .string({ message: 'Team slug is required' })
    .trim()
    .toLowerCase()
    .min(TEAM_LIMITS.slugMin, `Team slug must be at least ${TEAM_LIMITS.slugMin} characters`)
    .max(TEAM_LIMITS.slugMax, `Team slug must be at most ${TEAM_LIMITS.slugMax} characters`)
    .regex(SLUG_PATTERN, 'Team slug may contain only letters, digits and single hyphens between them'),
  description: z
    .string()
    .trim()
    .max(TEAM_LIMITS.descriptionMax, `Description must be at most ${TEAM_LIMITS.descriptionMax} characters`)
    .optional()
    .default(''),
  maxMembers: z.unknown().optional().transform(maxMembersOf),
});
export type TeamCreateInput = z.input<typeof teamCreateSchema>;

export const invitationCreateSchema = z.object({
  email: z
    .string({ message: 'Please enter a valid email' })
    .trim()
    .toLowerCase()
    .email('Please enter a valid email')
    .max(254),
  role: z
    .enum(['member'], { message: "An invitation's role can only be member" })
    .optional()
    .default('member'),
});
export type InvitationCreateInput = z.input<typeof invitationCreateSchema>;

export const teamSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  ownerId: z.string(),
  maxMembers: z.number().int(),
  memberCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

/** Spec section 3's member (id, names, email, createdAt) plus the role and when they joined. */
export const teamMemberSchema = z.object({
  id: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  role: z.enum(TEAM_ROLES),
  createdAt: z.string(),
  joinedAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** Spec section 3's invitation; `link` (with the token) only for the team's owner. */
export const invitationSchema = z.object({
  id: z.string(),
  teamId: z.string(),
  email: z.string(),
  role: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
  link: z.string().optional(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** The answer to sending one: whether an e-mail went out (SMTP configured) or the owner passes the link on. */
export const invitationSentSchema = invitationSchema.extend({ link: z.string(), emailSent: z.boolean() });
export type InvitationSent = z.infer<typeof invitationSentSchema>;

/** What the invited person sees at /invite/{token} before accepting. */
export const invitationPreviewSchema = z.object({
  teamName: z.string(),
  invitedBy: z.string(),
  email: z.string(),
  expiresAt: z.string(),
  /** Why it cannot be accepted by this user, or null when it can. */
  problem: z.string().nullable(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** Why an invitation cannot be accepted: one text per case, the API's messages. */
export const INVITATION_PROBLEMS = {
  expired: 'This invitation has expired. Ask the team owner for a new one.',
  revoked: 'This invitation was revoked by the team owner.',
  used: 'This invitation has already been used.',
  full: 'This team has reached its maximum number of members.',
  wrongEmail: 'This invitation was sent to another email address. Sign in with that account to accept it.',
  inTeam: 'You already belong to a team. Leave it before joining another.',
} as const;
