// Dashboard "Security Achievements": unlocked count, total points, a count per rarity, and a collapsible
// detail list (newest first) with icon, title, rarity badge, description, progress, unlock date and points,
// then the locked ones closest to unlocking, each with its progress bar (current/target and percent).

import { ACHIEVEMENTS } from '@csp/shared/achievements/catalogue';
import type { AchievementProgress } from '@csp/shared/achievements/schemas';
import { byCodeUnits } from '@csp/shared/text/order';
import {
  Award,
  BadgeCheck,
  Bug,
  ChevronDown,
  Crown,
  Eye,
  Flame,
  Globe,
  KeyRound,
  Layers,
  Lock,
  type LucideIcon,
  Medal,
  Radar,
  Radio,
  Repeat,
  Shield,
  ShieldCheck,
  Sparkles,
  Star,
  Target,
  Trophy,
  UserPlus,
  Users,
  Zap,
} from 'lucide-react';
import { useId, useState } from 'react';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/class-names';
import { formatCount, formatDate } from '@/lib/format';
import { type Achievement, type AchievementStats, RARITIES } from '../api/types';

/** Spec section 4: common (grey), rare (blue), epic (purple), legendary (yellow). */
export const RARITY_BADGE: Record<string, BadgeVariant> = {
  common: 'secondary',
  rare: 'info',
  epic: 'purple',
  legendary: 'warning',
};

const RARITY_TILE: Record<string, string> = {
  common: 'bg-slate-100 text-slate-600',
  rare: 'bg-blue-50 text-blue-600',
  epic: 'bg-violet-50 text-violet-600',
  legendary: 'bg-amber-50 text-amber-600',
};

// Every icon name the catalogue (shared/src/achievements/catalogue.ts) uses, and a few more.
const ICONS: Record<string, LucideIcon> = {
  award: Award,
  'badge-check': BadgeCheck,
  eye: Eye,
  'key-round': KeyRound,
  layers: Layers,
  radio: Radio,
  repeat: Repeat,
  'user-plus': UserPlus,
  bug: Bug,
  crown: Crown,
  flame: Flame,
  globe: Globe,
  key: KeyRound,
  lock: Lock,
  medal: Medal,
  radar: Radar,
  shield: Shield,
  'shield-check': ShieldCheck,
  sparkles: Sparkles,
  star: Star,
  target: Target,
  trophy: Trophy,
  users: Users,
  zap: Zap,
};

export function AchievementIcon({
  icon,
  rarity,
  className,
}: {
  icon: string;
  rarity: string;
  className?: string;
}) {
  const key = icon.trim().toLowerCase();
  const Icon = ICONS[key];
  // Anything that is not a known icon name but short (an emoji, say) is shown as it is.
  const text = !Icon && icon && [...icon].length <= 2 ? icon : null;
  const Fallback = Icon ?? Trophy;
  return (
    <span
      className={cn(
        'flex size-10 shrink-0 items-center justify-center rounded-lg text-lg',
        RARITY_TILE[rarity] ?? RARITY_TILE.common,
        className,
      )}
      aria-hidden="true"
    >
      {text ?? <Fallback className="size-5" />}
    </span>
  );
}

export function RarityBadge({ rarity }: { rarity: string }) {
  return (
    <Badge variant={RARITY_BADGE[rarity] ?? 'secondary'} className="capitalize">
      {rarity}
    </Badge>
  );
}

function statsOf(achievements: Achievement[], stats: AchievementStats | null | undefined): AchievementStats {
  if (stats) return stats;
  const rarityBreakdown: Record<string, number> = {};
  for (const a of achievements) rarityBreakdown[a.rarity] = (rarityBreakdown[a.rarity] ?? 0) + 1;
  return {
    totalAchievements: achievements.length,
    totalPoints: achievements.reduce((sum, a) => sum + (a.points ?? 0), 0),
    rarityBreakdown,
  };
}

const percentOf = (p: { currentValue: number; targetValue: number }) =>
  p.targetValue > 0 ? Math.min(100, Math.round((p.currentValue / p.targetValue) * 100)) : 0;

/** The catalogue's locked achievements with their progress, closest to unlocking first. */
function lockedOf(achievements: Achievement[], progress: AchievementProgress[]) {
  const unlocked = new Set(achievements.map((a) => a.type));
  const byType = new Map(progress.map((p) => [p.achievementType, p]));
  return ACHIEVEMENTS.filter((a) => !unlocked.has(a.type))
    .map((a) => ({
      ...a,
      progress: byType.get(a.type) ?? { achievementType: a.type, currentValue: 0, targetValue: a.target },
    }))
    .sort((a, b) => percentOf(b.progress) - percentOf(a.progress));
}

export function AchievementsCard({
  achievements,
  stats,
  progress = [],
  error,
}: {
  achievements: Achievement[];
  stats?: AchievementStats | null;
  /** GET /api/achievements/progress: the bars of the locked ones. */
  progress?: AchievementProgress[];
  error?: Error | null;
}) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const summary = statsOf(achievements, stats);
  const sorted = [...achievements].sort((a, b) => byCodeUnits(b.unlockedAt ?? '', a.unlockedAt ?? ''));
  const locked = progress.length > 0 ? lockedOf(achievements, progress) : [];
  const empty = achievements.length === 0;

  return (
    <Card>
      <CardHeader
        actions={
          (empty && locked.length === 0) || error ? null : (
            <Button
              variant="outline"
              size="sm"
              aria-expanded={open}
              aria-controls={listId}
              onClick={() => setOpen((v) => !v)}
            >
              {open ? 'Hide Achievement Details' : 'Show Achievement Details'}
              <ChevronDown className={cn('transition-transform', open && 'rotate-180')} aria-hidden="true" />
            </Button>
          )
        }
      >
        <CardTitle className="flex items-center gap-2">
          <Trophy className="size-4 text-amber-500" aria-hidden="true" />
          Security Achievements
        </CardTitle>
        <CardDescription>Milestones you unlock as your policies get stronger.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {error ? (
          <p
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
            role="alert"
          >
            Could not load your achievements ({error.message}).
          </p>
        ) : empty ? (
          <EmptyState
            icon={Trophy}
            title="No achievements unlocked yet"
            description="Complete your first CSP scan to get started!"
          />
        ) : (
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
            <div className="rounded-lg border border-border bg-slate-50/60 p-3">
              <dt className="text-xs text-muted-foreground">Unlocked</dt>
              <dd className="mt-1 text-xl font-semibold tabular-nums">
                {formatCount(summary.totalAchievements)}
              </dd>
            </div>
            <div className="rounded-lg border border-border bg-slate-50/60 p-3">
              <dt className="text-xs text-muted-foreground">Total points</dt>
              <dd className="mt-1 text-xl font-semibold tabular-nums">{formatCount(summary.totalPoints)}</dd>
            </div>
            {RARITIES.map((rarity) => (
              <div key={rarity} className="rounded-lg border border-border p-3">
                <dt>
                  <RarityBadge rarity={rarity} />
                </dt>
                <dd className="mt-1.5 text-xl font-semibold tabular-nums">
                  {formatCount(summary.rarityBreakdown[rarity] ?? 0)}
                </dd>
              </div>
            ))}
          </dl>
        )}
        {open && !error ? (
          <div id={listId} className="flex flex-col gap-4">
            {sorted.length > 0 ? (
              <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
                {sorted.map((achievement) => (
                  <AchievementRow key={achievement.id} achievement={achievement} />
                ))}
              </ul>
            ) : null}
            {locked.length > 0 ? (
              <section className="flex flex-col gap-2" aria-labelledby={`${listId}-next`}>
                <h3 id={`${listId}-next`} className="text-sm font-medium">
                  Next to unlock
                </h3>
                <ul
                  className="flex flex-col divide-y divide-border rounded-lg border border-dashed border-border"
                  data-testid="locked-achievements"
                >
                  {locked.map((a) => (
                    <LockedRow key={a.type} achievement={a} />
                  ))}
                </ul>
              </section>
            ) : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function ProgressLine({
  title,
  progress,
}: {
  title: string;
  progress: { currentValue: number; targetValue: number };
}) {
  const percent = percentOf(progress);
  return (
    <div className="flex items-center gap-3">
      <Progress value={percent} className="h-1.5 max-w-xs" label={`${title} progress`} />
      <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">
        {formatCount(progress.currentValue)}/{formatCount(progress.targetValue)} ({percent}%)
      </span>
    </div>
  );
}

function LockedRow({ achievement }: { achievement: ReturnType<typeof lockedOf>[number] }) {
  return (
    <li className="flex gap-3 p-4" data-testid="locked-achievement" data-type={achievement.type}>
      <AchievementIcon icon={achievement.icon} rarity={achievement.rarity} className="opacity-60 grayscale" />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-muted-foreground">{achievement.title}</span>
          <RarityBadge rarity={achievement.rarity} />
        </div>
        <p className="text-sm text-muted-foreground">{achievement.description}</p>
        <ProgressLine title={achievement.title} progress={achievement.progress} />
      </div>
      <span className="self-start text-sm font-semibold whitespace-nowrap text-muted-foreground tabular-nums">
        +{achievement.points}
      </span>
    </li>
  );
}

function AchievementRow({ achievement }: { achievement: Achievement }) {
  return (
    <li className="flex gap-3 p-4">
      <AchievementIcon icon={achievement.icon} rarity={achievement.rarity} />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{achievement.title}</span>
          <RarityBadge rarity={achievement.rarity} />
        </div>
        <p className="text-sm text-muted-foreground">{achievement.description}</p>
        <span className="text-xs text-muted-foreground">Unlocked {formatDate(achievement.unlockedAt)}</span>
      </div>
      <span className="self-start text-sm font-semibold whitespace-nowrap text-amber-600 tabular-nums">
        +{achievement.points}
      </span>
    </li>
  );
}
