// /auth: a marketing panel and the 'Get Started' card (sign in, or create an account with ?mode=register).
// The forms are modules of their own (authForms, asked for by the route once this one is there): they bring the
// verification widget and the schemas, most of the screen's code, and the screen around them (what a
// phone shows first, its largest text included) no longer waits for them. Until a form is there, its
// place is kept at its height, so nothing below it moves when it comes.
import { FileCode, Radar, ShieldCheck } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Logo } from '@/components/ui/logo';
import { Skeleton } from '@/components/ui/skeleton';
import { authForms } from '@/features/auth/components/auth-forms';
import { PublicOnlyRoute } from '@/features/auth/components/protected-route';
import { safeReturnPath } from '@/lib/return-path';

const LoginForm = lazy(() => authForms.login().then((m) => ({ default: m.LoginForm })));
const RegisterForm = lazy(() => authForms.register().then((m) => ({ default: m.RegisterForm })));

const POINTS = [
  {
    icon: Radar,
    title: 'Crawl-based analysis',
    text: 'A real browser visits your pages and records every script, style, frame and connection.',
  },
  {
    icon: ShieldCheck,
    title: 'Strict by default',
    text: "Hashes and nonces instead of 'unsafe-inline', graded against Google's CSP Evaluator.",
  },
  {
    icon: FileCode,
    title: 'Ready to deploy',
    text: 'Copy the header or download a configuration for Apache, Nginx or IIS.',
  },
] as const;

export function AuthRoute() {
  return (
    <PublicOnlyRoute>
      <AuthScreen />
    </PublicOnlyRoute>
  );
}

function AuthScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const mode = params.get('mode') === 'register' ? 'register' : 'login';
  const goToDashboard = () => navigate(safeReturnPath(params.get('next')), { replace: true });

  return (
    <div className="grid min-h-screen bg-background lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
      <aside className="relative isolate hidden overflow-hidden bg-slate-950 text-white lg:flex lg:flex-col lg:justify-between lg:p-12">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(70%_60%_at_20%_0%,rgba(99,102,241,0.35),transparent_70%),radial-gradient(50%_50%_at_100%_100%,rgba(16,185,129,0.15),transparent_70%)]"
        />
        <Link to="/" className="self-start rounded-md">
          <Logo inverted />
        </Link>
        <div className="flex max-w-md flex-col gap-8">
          <div className="flex flex-col gap-3">
            <h2 className="text-3xl font-semibold tracking-tight">
              Ship a Content Security Policy you can trust.
            </h2>
            <p className="text-slate-300">
              Generate robust Content Security Policies for your websites with advanced web scraping and
              real-time analysis
            </p>
          </div>
          <MarketingPoints tone="dark" />
        </div>
        <p className="font-mono text-xs text-slate-500">
          Content-Security-Policy: default-src 'self'; object-src 'none'
        </p>
      </aside>

      <main className="flex flex-col">
        <header className="flex h-16 items-center border-b border-border bg-card px-4 sm:px-6 lg:hidden">
          <Link to="/" className="rounded-md">
            <Logo />
          </Link>
        </header>
        <div className="flex flex-1 items-start justify-center px-4 py-8 sm:px-6 sm:py-12 lg:items-center">
          <div className="flex w-full max-w-md flex-col gap-6">
            <Card className="shadow-md">
              <CardHeader className="pb-2 sm:pb-2">
                <CardTitle className="text-2xl">Get Started</CardTitle>
                <CardDescription>
                  {mode === 'login' ? 'Sign in to your account' : 'Create your account'}
                </CardDescription>
              </CardHeader>
              <CardContent className="pt-4">
                <Suspense fallback={<FormPlaceholder mode={mode} />}>
                  {mode === 'login' ? (
                    <LoginForm key="login" onSuccess={goToDashboard} />
                  ) : (
                    <RegisterForm key="register" onSuccess={goToDashboard} />
                  )}
                </Suspense>
              </CardContent>
            </Card>
            <p className="text-center text-sm text-muted-foreground">
              {mode === 'login' ? (
                <>
                  New to CSP Generator?{' '}
                  <Link to="/auth?mode=register" className="font-medium text-primary hover:underline">
                    Create an account
                  </Link>
                </>
              ) : (
                <>
                  Already have an account?{' '}
                  <Link to="/auth" className="font-medium text-primary hover:underline">
                    Sign in
                  </Link>
                </>
              )}
            </p>
            <section
              aria-label="Why CSP Generator"
              className="mt-4 flex flex-col gap-4 rounded-xl border border-border bg-card p-5 lg:hidden"
            >
              <p className="text-sm font-semibold text-foreground">
                Ship a Content Security Policy you can trust.
              </p>
              <MarketingPoints tone="light" />
            </section>
          </div>
        </div>
      </main>
    </div>
  );
}

/** A form's place while its module loads: as tall as the form, so the text below it does not move. */
function FormPlaceholder({ mode }: { mode: 'login' | 'register' }) {
  return (
    <LoadingBlock
      label="Loading the form..."
      data-testid="auth-form-placeholder"
      // The forms' heights (web/e2e/auth-form-placeholder.test.ts compares them): the register form puts
      // its two name fields side by side from the sm breakpoint.
      className={mode === 'login' ? 'h-80' : 'h-[630px] sm:h-[532px]'}
    >
      <Skeleton className="h-full w-full rounded-lg" />
    </LoadingBlock>
  );
}

function MarketingPoints({ tone }: { tone: 'dark' | 'light' }) {
  const dark = tone === 'dark';
  return (
    <ul className={dark ? 'flex flex-col gap-5' : 'flex flex-col gap-4'}>
      {POINTS.map(({ icon: Icon, title, text }) => (
        <li key={title} className="flex gap-4">
          <span
            className={
              dark
                ? 'flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/10 ring-1 ring-white/15'
                : 'flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary-soft ring-1 ring-primary/10'
            }
          >
            <Icon className={dark ? 'size-5 text-indigo-200' : 'size-4 text-primary'} aria-hidden="true" />
          </span>
          <div className="flex flex-col gap-1">
            <span className={dark ? 'font-medium' : 'text-sm font-medium text-foreground'}>{title}</span>
            <span className={dark ? 'text-sm text-slate-400' : 'text-sm text-muted-foreground'}>{text}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}
