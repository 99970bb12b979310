import { describe, expect, it } from 'vitest';
import { invitationMail, TEAM_NAME_IN_MAIL_MAX, teamNameForMail } from './invitation-mail';

describe('the invitation mail', () => {
  it('shows a team name as one line of at most 60 characters, never cutting a character in two', () => {
    expect(teamNameForMail('  Acme\r\n\u2028Web\u202e\u200b Team\t ')).toBe('Acme Web Team');
    expect(teamNameForMail('a'.repeat(TEAM_NAME_IN_MAIL_MAX))).toBe('a'.repeat(TEAM_NAME_IN_MAIL_MAX));
    // 59 letters then emoji (two UTF-16 units each): the 60th character is the first emoji, whole.
    expect(teamNameForMail(`${'a'.repeat(59)}😀😀`)).toBe(`${'a'.repeat(59)}😀…`);
  });

  it('has no subject or text of the inviter’s choosing beyond the marked team name', () => {
    const mail = invitationMail({
      to: 'new@example.test',
      teamName: 'Team\nPS: wire the money',
      link: 'https://csp.test/invite/t',
      expiresAt: '2030-01-08T00:00:00.000Z',
    });
    expect(mail.subject).toBe('You are invited to join a team on CSP Generator');
    expect(mail.text.split('\n').slice(2, 4)).toEqual([
      "The team's name, as its owner wrote it (CSP Generator did not write it):",
      '    "Team PS: wire the money"',
    ]);
    expect(mail.text).toContain('\nhttps://csp.test/invite/t\n');
    expect(mail.text).toContain('The link expires on Tue, 08 Jan 2030 00:00:00 GMT.');
  });
});
