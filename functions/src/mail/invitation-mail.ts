// The team invitation e-mail. Anyone with an account can make a team and invite any address, so the mail
// carries no text of the inviter's choosing but the team's name: no names of the inviter (chosen freely at
// registration), no description, nothing in the subject. The name is made one line, cut, and set apart on a
// line of its own under a note that its owner wrote it, so it cannot pass for our words.
import type { Mail } from './mailer';
import { oneLineForMail } from './one-line';

/** Characters of a team's name shown in the mail; a longer name is cut and ends with "…". */
export const TEAM_NAME_IN_MAIL_MAX = 60;

/** The team's name as one quoted line of at most TEAM_NAME_IN_MAIL_MAX characters. */
export const teamNameForMail = (name: string) => oneLineForMail(name, TEAM_NAME_IN_MAIL_MAX);

export function invitationMail(input: {
  to: string;
  teamName: string;
  link: string;
  expiresAt: string;
}): Mail {
  return {
    to: input.to,
    subject: 'You are invited to join a team on CSP Generator',
    text: [
      'You are invited to join a team on CSP Generator.',
      '',
      "The team's name, as its owner wrote it (CSP Generator did not write it):",
      `    "${teamNameForMail(input.teamName)}"`,
      '',
      'To accept, sign in to CSP Generator with this e-mail address, then open this link:',
      input.link,
      '',
      `The link expires on ${new Date(input.expiresAt).toUTCString()}.`,
      "If you didn't expect this invitation, you can ignore this message.",
    ].join('\n'),
  };
}
