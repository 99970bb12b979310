// Teams in the browser: the owner creates a team in Settings › Team and invites by email (no mail server:
// the link is kept in Pending Invitations); the invited user opens the link signed out, signs in, comes
// back to it and accepts; the owner sees them among the members, copies another invitation's link from its
// Actions menu and revokes it; the member leaves.
import { registeredClient } from '@csp/functions/src/testing/api-server';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  clickText,
  confirmDialog,
  dismissToasts,
  fill,
  guardPage,
  type PageGuard,
  solveWidget,
  visibleText,
  waitForPath,
  waitForToast,
} from './harness';
import { closeSignedInBrowser, type SignedInBrowser, startSignedInBrowser } from './signed-in-browser';

let owner: SignedInBrowser;
let server: SignedInBrowser['server'];
let browser: Browser;
let page: Page;
let guard: PageGuard;
let other: BrowserContext | undefined;
let guards: PageGuard[] = [];

beforeAll(async () => {
  owner = await startSignedInBrowser();
  ({ server, browser, page, guard } = owner);
  guards = [guard];
});
afterAll(async () => {
  await other?.close();
  await closeSignedInBrowser({ browser, server });
});
afterEach(() => {
  for (const g of guards) g.assertClean();
});

const rowText = (p: Page, testId: string) =>
  p.$$eval(`[data-testid="${testId}"]`, (rows) =>
    rows.map((r) => (r as HTMLElement).innerText.replace(/\s+/g, ' ')),
  );

describe('teams', () => {
  it('creates a team, invites by link, and the invited user signs in and joins', async () => {
    const invited = await registeredClient(server.url, { firstName: 'Ben', lastName: 'Member' });
    const invitedEmail = `${invited.username}@example.test`;

    // The owner: Settings › Team → Create a Team (the slug follows the name).
    await page.goto(`${server.url}/settings`, { waitUntil: 'load' });
    await clickText(page, 'button', 'Team');
    await page.waitForSelector('form[aria-label="Create a Team"]');
    expect(await visibleText(page)).toContain('Used in URLs and team identification');
    await page.type('#team-name', 'Acme Web Agency');
    expect(await page.$eval('#team-slug', (el) => (el as HTMLInputElement).value)).toBe('acme-web-agency');
    await page.type('#team-description', 'Sites we look after');
    await fill(page, '#team-max-members', 'abc');
    await clickText(page, 'button', 'Create Team');
    await waitForToast(page, 'Team created');
    await page.waitForSelector('[data-testid="team-card"]');
    let text = await visibleText(page);
    for (const expected of [
      'Team: Acme Web Agency',
      'Sites we look after',
      'acme-web-agency',
      '1 of 5 max',
      'Owner',
    ]) {
      expect(text).toContain(expected);
    }
    expect(new URL(page.url()).search).toBe('?tab=team');

    // Invite: without a mail server the invitation is made and its link kept.
    await page.type('#invite-email', invitedEmail);
    await clickText(page, 'button', 'Send Invite');
    const toast = await waitForToast(page, 'Invitation created');
    expect(toast.text).toContain(invitedEmail);
    await page.waitForSelector('[data-testid="team-invitation"]');
    expect((await rowText(page, 'team-invitation'))[0]).toContain(invitedEmail);
    const [invitation] = await (await owner.client.get('/api/teams/invitations')).json();
    expect(invitation.email).toBe(invitedEmail);

    // The invited user, in a browser of their own, signed out: the link leads to sign-in and back.
    other = await browser.createBrowserContext();
    const theirs = await other.newPage();
    guards.push(await guardPage(theirs));
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
    await page.reload({ waitUntil: 'load' });
    await page.waitForSelector('[data-testid="team-member"]');
    const members = await rowText(page, 'team-member');
    expect(members).toHaveLength(2);
    expect(members[1]).toContain('Ben Member');
    expect(members[1]).toContain('Member');
    expect(await page.$('[data-testid="team-invitation"]')).toBeNull();
    expect(await visibleText(page)).toContain('2 of 5 max');

    // A used link says so.
    await theirs.goto(invitation.link, { waitUntil: 'load' });
    await theirs.waitForSelector('[data-testid="invitation-problem"]');
    expect(await visibleText(theirs)).toContain('This invitation has already been used.');
  });

  it("copies an invitation's link and revokes it from its Actions menu, and lets a member leave", async () => {
    await dismissToasts(page);
    await page.type('#invite-email', 'someone.else@example.test');
    await clickText(page, 'button', 'Send Invite');
    await waitForToast(page, 'Invitation created');
    await page.waitForSelector('[data-testid="invitation-actions"]');
    await dismissToasts(page);
    const [pending] = await (await owner.client.get('/api/teams/invitations')).json();

    // Actions › Copy link: the menu is on top of everything (not cut off by the table's scrolling box).
    await page.click('[data-testid="invitation-actions"]');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Copy link');
    expect(
      await page.$eval('[role="menu"]', (menu) =>
        [...menu.querySelectorAll('[role="menuitem"]')].every((item) => {
          const r = item.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return r.bottom <= window.innerHeight && r.top >= 0 && item.contains(hit);
        }),
      ),
    ).toBe(true);
    await clickText(page, '*[@role="menuitem"]', 'Copy link');
    await waitForToast(page, 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pending.link);
    expect(await page.$('[role="menu"]:popover-open')).toBeNull();
    await dismissToasts(page);

    await page.click('[data-testid="invitation-actions"]');
    await clickText(page, '*[@role="menuitem"]', 'Revoke');
    await waitForToast(page, 'Invitation revoked');
    await page.waitForFunction(() => !document.querySelector('[data-testid="team-invitation"]'));

    const theirs = (await other!.pages())[0]!;
    await theirs.goto(`${server.url}/settings?tab=team`, { waitUntil: 'load' });
    await clickText(theirs, 'button', 'Leave team');
    await confirmDialog(theirs, 'Leave team');
    await waitForToast(theirs, 'Left team');
    await theirs.waitForSelector('form[aria-label="Create a Team"]');
    await page.reload({ waitUntil: 'load' });
    await page.waitForSelector('[data-testid="team-member"]');
    expect(await rowText(page, 'team-member')).toHaveLength(1);
  });
});
