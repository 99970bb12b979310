// Request and response shapes of sign-in, registration and the current user (spec sections 3, 5, 7).
import * as z from 'zod';
import { looksLikeRecoveryCode } from '../auth/recovery-codes';

export const ROLES = ['user', 'admin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

// Upper bounds the spec leaves open [9]: generous enough for real names, small enough to refuse abuse.
const name = z.string().trim().max(100, 'Must be at most 100 characters');

export const loginSchema = z.object({
  username: z.string().trim().min(1, 'Username is required').max(100, 'Username is too long'),
  password: z.string().min(1, 'Password is required').max(200, 'Password is too long'),
  altcha: z.string().max(10_000).optional(),
  /** Second step of a sign-in when two-factor authentication is on. */
  totp: z
    .string()
    .regex(/^\d{6}$/, 'The code must be 6 digits')
    .optional(),
  /** Instead of `totp`: one of the account's single-use recovery codes. */
  recoveryCode: z
    .string()
    .trim()
    .max(64)
    .refine(looksLikeRecoveryCode, 'Enter a recovery code like XXXX-XXXX-XXXX-XXXX')
    .optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  username: z
    .string()
    .trim()
    .min(3, 'Username must be at least 3 characters')
    .max(50, 'Username must be at most 50 characters')
    .regex(/^[A-Za-z0-9._-]+$/, 'Username may contain letters, digits, dot, dash and underscore only'),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .email('Please enter a valid email')
    .max(254, 'Please enter a valid email'),
  password: z
    .string()
    .min(6, 'Password must be at least 6 characters')
    .max(200, 'Password must be at most 200 characters'),
  firstName: name.optional().default(''),
  lastName: name.optional().default(''),
  altcha: z.string().max(10_000).optional(),
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** The current user as the client sees it: never the password hash or the 2FA secret. */
export const publicUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: roleSchema,
  teamId: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const profileUpdateSchema = z.object({
  firstName: name.optional(),
  lastName: name.optional(),
  email: z.string().trim().toLowerCase().email('Please enter a valid email').max(254).optional(),
  /** Needed to change the email: whoever holds a session alone must not take the account over. */
  currentPassword: z.string().max(200).optional(),
});

/** Turning 2FA off needs the password or a current code. */
export const twoFactorDisableSchema = z
  .object({
    password: z.string().max(200).optional(),
    token: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'The code must be exactly 6 digits')
      .optional(),
  })
  .refine((v) => Boolean(v.password) || Boolean(v.token), {
    message: 'Enter your password or a code from your authenticator app',
    path: ['password'],
  });

/** New recovery codes (the old ones stop working) need the password: a session alone must not mint them. */
export const recoveryCodesRegenerateSchema = z.object({
  password: z.string({ error: 'Enter your password' }).min(1, 'Enter your password').max(200),
});

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required').max(200),
    newPassword: z.string().min(6, 'New password must be at least 6 characters').max(200),
    confirmPassword: z.string().min(1, 'Please confirm your new password').max(200),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
