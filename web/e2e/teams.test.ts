// Teams in the browser: the owner creates a team in Settings › Team and invites by email (no mail server:
// the link is kept in Pending Invitations); the invited user opens the link signed out, signs in, comes
// back to it and accepts; the owner sees them among the members, copies another invitation's link from its
// Actions menu and revokes it; the member leaves.
import { registeredClient } from '@csp/functions/src/testing/api-server';
import type { BrowserContext, Page } from 'puppeteer-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  clickText,
  confirmDialog,
  dismissToasts,
  fill,
  solveWidget,
  visibleText,
  waitForPath,
  waitForToast,
} from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ clipboard: true });
let other: BrowserContext | undefined;

afterAll(async () => {
  await other?.close();
});

const rowText = (p: Page, testId: string) =>
  p.$$eval(`[data-testid="${testId}"]`, (rows) =>
    rows.map((r) => (r as HTMLElement).innerText.replace(/\s+/g, ' ')),
  );

describe('teams', () => {
  it('creates a team, invites by link, and the invited user signs in and joins', async () => {
    const invited = await registeredClient(t.server.url, { firstName: 'Ben', lastName: 'Member' });
    const invitedEmail = `${invited.username}@example.test`;

    // The owner: Settings › Team → Create a Team (the slug follows the name).
    await t.page.goto(`${t.server.url}/settings`, { waitUntil: 'load' });
    await clickText(t.page, 'button', 'Team');
    await t.page.waitForSelector('form[aria-label="Create a Team"]');
    expect(await visibleText(t.page)).toContain('Used in URLs and team identification');
    await t.page.type('#team-name', 'Acme Web Agency');
    expect(await t.page.$eval('#team-slug', (el) => (el as HTMLInputElement).value)).toBe('acme-web-agency');
    await t.page.type('#team-description', 'Sites we look after');
    await fill(t.page, '#team-max-members', 'abc');
    await clickText(t.page, 'button', 'Create Team');
    await waitForToast(t.page, 'Team created');
    await t.page.waitForSelector('[data-testid="team-card"]');
    let text = await visibleText(t.page);
    for (const expected of [
      'Team: Acme Web Agency',
      'Sites we look after',
      'acme-web-agency',
      '1 of 5 max',
      'Owner',
    ]) {
      expect(text).toContain(expected);
    }
    expect(new URL(t.page.url()).search).toBe('?tab=team');

    // Invite: without a mail server the invitation is made and its link kept.
    await t.page.type('#invite-email', invitedEmail);
    await clickText(t.page, 'button', 'Send Invite');
    const toast = await waitForToast(t.page, 'Invitation created');
    expect(toast.text).toContain(invitedEmail);
    await t.page.waitForSelector('[data-testid="team-invitation"]');
    expect((await rowText(t.page, 'team-invitation'))[0]).toContain(invitedEmail);
    const [invitation] = await (await t.client.get('/api/teams/invitations')).json();
    expect(invitation.email).toBe(invitedEmail);

    // The invited user, in a browser of their own, signed out: the link leads to sign-in and back.
    other = await t.browser.createBrowserContext();
    const theirs = await other.newPage();
    await t.guardPage(theirs);
    await theirs.goto(invitation.link, { waitUntil: 'load' });
    await waitForPath(theirs, '/auth');
    expect(new URL(theirs.url()).searchParams.get('next')).toBe(new URL(invitation.link).pathname);
    await theirs.waitForSelector('input[name="username"]');
    await theirs.type('input[name="username"]', invited.username);
    await theirs.type('input[name="password"]', invited.password);
    await solveWidget(theirs);
    await theirs.click('button[type="submit"]');
    await waitForPath(theirs, new URL(invitation.link).pathname);
    await theirs.waitForSelector('[data-testid="invitation"] button');
    text = await visibleText(theirs);
    for (const expected of ['Join Acme Web Agency', 'Grace', invitedEmail, 'Accept invitation', 'Decline']) {
      expect(text).toContain(expected);
    }
    await clickText(theirs, 'button', 'Accept invitation');
    await waitForToast(theirs, 'Joined team');
    await waitForPath(theirs, '/settings');
    await theirs.waitForSelector('[data-testid="team-card"]');
    text = await visibleText(theirs);
    expect(text).toContain('Team: Acme Web Agency');
    expect(text).toContain('Member');
    expect(text).not.toContain('Invite Team Members');

    // The owner sees the new member; the invitation is no longer pending.
    await t.page.reload({ waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="team-member"]');
    const members = await rowText(t.page, 'team-member');
    expect(members).toHaveLength(2);
    expect(members[1]).toContain('Ben Member');
    expect(members[1]).toContain('Member');
    expect(await t.page.$('[data-testid="team-invitation"]')).toBeNull();
    expect(await visibleText(t.page)).toContain('2 of 5 max');

    // A used link says so.
    await theirs.goto(invitation.link, { waitUntil: 'load' });
    await theirs.waitForSelector('[data-testid="invitation-problem"]');
    expect(await visibleText(theirs)).toContain('This invitation has already been used.');
  });

  it("copies an invitation's link and revokes it from its Actions menu, and lets a member leave", async () => {
    await dismissToasts(t.page);
    await t.page.type('#invite-email', 'someone.else@example.test');
    await clickText(t.page, 'button', 'Send Invite');
    await waitForToast(t.page, 'Invitation created');
    await t.page.waitForSelector('[data-testid="invitation-actions"]');
    await dismissToasts(t.page);
    const [pending] = await (await t.client.get('/api/teams/invitations')).json();

    // Actions › Copy link: the menu is on top of everything (not cut off by the table's scrolling box).
    await t.page.click('[data-testid="invitation-actions"]');
    await t.page.waitForFunction(() => document.activeElement?.textContent === 'Copy link');
    expect(
      await t.page.$eval('[role="menu"]', (menu) =>
        [...menu.querySelectorAll('[role="menuitem"]')].every((item) => {
          const r = item.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return r.bottom <= window.innerHeight && r.top >= 0 && item.contains(hit);
        }),
      ),
    ).toBe(true);
    await clickText(t.page, '*[@role="menuitem"]', 'Copy link');
    await waitForToast(t.page, 'Copied to clipboard');
    expect(await t.page.evaluate(() => navigator.clipboard.readText())).toBe(pending.link);
    expect(await t.page.$('[role="menu"]:popover-open')).toBeNull();
    await dismissToasts(t.page);

    await t.page.click('[data-testid="invitation-actions"]');
    await clickText(t.page, '*[@role="menuitem"]', 'Revoke');
    await waitForToast(t.page, 'Invitation revoked');
    await t.page.waitForFunction(() => !document.querySelector('[data-testid="team-invitation"]'));

    const theirs = (await other!.pages())[0]!;
    await theirs.goto(`${t.server.url}/settings?tab=team`, { waitUntil: 'load' });
    await clickText(theirs, 'button', 'Leave team');
    await confirmDialog(theirs, 'Leave team');
    await waitForToast(theirs, 'Left team');
    await theirs.waitForSelector('form[aria-label="Create a Team"]');
    await t.page.reload({ waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="team-member"]');
    expect(await rowText(t.page, 'team-member')).toHaveLength(1);
  });
});
