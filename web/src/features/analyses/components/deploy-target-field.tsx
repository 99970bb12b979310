// 'Deploy target': where the policy will be sent from, which bounds its length. A server header (the
// header budget in bytes) or a CloudFront response-headers policy (at most 1,783 characters in the value).
import { POLICY_TARGETS, type PolicyTarget } from '@csp/shared/csp/policy';
import { CLOUDFRONT_CSP_MAX } from '@csp/shared/csp/serialize';
import { Cloud, Server } from 'lucide-react';
import { useId } from 'react';
import { cn } from '@/lib/class-names';
import { formatCount } from '@/lib/format';

const OPTIONS: Record<PolicyTarget, { label: string; hint: string; Icon: typeof Server }> = {
  header: {
    label: 'Server header',
    hint: 'Your web server or proxy sends the header; the header budget applies.',
    Icon: Server,
  },
  cloudfront: {
    label: 'CloudFront response-headers policy',
    hint: `The policy value has a ${formatCount(CLOUDFRONT_CSP_MAX)}-character cap, whatever the header budget.`,
    Icon: Cloud,
  },
};

export function DeployTargetField({
  value,
  onChange,
  error,
  disabled,
  className,
}: {
  value: PolicyTarget;
  onChange: (value: PolicyTarget) => void;
  error?: string | undefined;
  disabled?: boolean;
  className?: string;
}) {
  const name = useId();
  const errorId = `${name}-error`;
  return (
    <fieldset
      className={cn('flex min-w-0 flex-col gap-2', className)}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="mb-2 text-sm font-medium leading-none text-foreground">Deploy target</legend>
      <div className="flex flex-col gap-2">
        {POLICY_TARGETS.map((target) => {
          const { label, hint, Icon } = OPTIONS[target];
          return (
            <label
              key={target}
              className={cn(
                'flex cursor-pointer gap-3 rounded-lg border p-3 transition-colors has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
                value === target ? 'border-primary bg-primary-soft/50' : 'border-input hover:bg-slate-50',
              )}
            >
              <input
                type="radio"
                name="policyTarget"
                value={target}
                checked={value === target}
                onChange={() => onChange(target)}
                disabled={disabled}
                className="mt-0.5 size-4 shrink-0 accent-primary"
              />
              <span className="flex min-w-0 flex-col gap-1">
                <span className="flex items-start gap-1.5 text-sm font-medium text-foreground">
                  <Icon className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  {label}
                </span>
                <span className="text-xs text-muted-foreground">{hint}</span>
              </span>
            </label>
          );
        })}
      </div>
      {error ? (
        <p id={errorId} className="text-xs font-medium text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
