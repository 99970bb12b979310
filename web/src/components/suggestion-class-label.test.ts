import { describe, expect, it } from 'vitest';
import { suggestionBadgeOf } from './suggestion-class-label';

describe('suggestionBadgeOf', () => {
  it('keeps the red badge for unknown inline scripts and gives unknown inline styles a milder one', () => {
    expect(suggestionBadgeOf('suspicious-inline', 'script-src')).toEqual({
      label: 'Suspicious inline',
      badge: 'destructive',
    });
    expect(suggestionBadgeOf('suspicious-inline', 'script-src-attr').badge).toBe('destructive');
    for (const directive of ['style-src', 'style-src-attr', 'style-src-elem']) {
      expect(suggestionBadgeOf('suspicious-inline', directive)).toEqual({
        label: 'Unknown inline style',
        badge: 'warning',
      });
    }
    expect(suggestionBadgeOf('new-third-party', 'style-src').label).toBe('New third party');
  });
});
