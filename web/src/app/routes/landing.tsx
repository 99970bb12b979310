// Landing page for visitors who are not signed in (spec section 1 and "Landing page").
import { ArrowRight, Check, FileCode, Globe, ShieldCheck, Zap } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';

const FEATURES = [
  {
    icon: ShieldCheck,
    title: 'Security First',
    text: "Policies built from what your pages really load, with hashes for inline code and no 'unsafe-inline' unless it is truly needed.",
  },
  {
    icon: Zap,
    title: 'Fast Analysis',
    text: 'A headless browser crawls your sitemap and pages in parallel and reports its progress in real time.',
  },
  {
    icon: Globe,
    title: 'Multi-Domain',
    text: 'Manage every site you run in one place, each with its own scan history, saved policies and reports.',
  },
] as const;

const POLICY_LINES: Array<[string, string]> = [
  ['default-src', "'self'"],
  ['script-src', "'self' 'sha256-q1Zk…2Ow=' https://cdn.example.net"],
  ['style-src', "'self' https://fonts.googleapis.com"],
  ['img-src', "'self' data: https://images.example.net"],
  ['connect-src', "'self' https://api.example.com"],
  ['object-src', "'none'"],
  ['base-uri', "'self'"],
  ['frame-ancestors', "'none'"],
];

export function LandingRoute() {
  return (
    <div className="flex min-h-screen flex-col bg-background">
      <section className="relative isolate overflow-hidden bg-slate-950 text-white">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(60%_60%_at_70%_0%,rgba(99,102,241,0.35),transparent_70%),radial-gradient(40%_50%_at_0%_100%,rgba(16,185,129,0.18),transparent_70%)]"
        />
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[linear-gradient(to_right,rgba(255,255,255,0.04)_1px,transparent_1px),linear-gradient(to_bottom,rgba(255,255,255,0.04)_1px,transparent_1px)] bg-[size:44px_44px] [mask-image:linear-gradient(to_bottom,black,transparent)]"
        />
        <header className="mx-auto flex h-16 w-full max-w-6xl items-center justify-between px-4 sm:px-6 lg:px-8">
          <Logo inverted />
          <Link
            to="/auth"
            className="rounded-lg px-3 py-2 text-sm font-medium text-slate-300 transition-colors hover:bg-white/10 hover:text-white"
          >
            Sign in
          </Link>
        </header>

        <div className="mx-auto grid w-full max-w-6xl items-center gap-12 px-4 pt-12 pb-20 sm:px-6 sm:pt-16 lg:grid-cols-[1.05fr_1fr] lg:px-8 lg:pt-20 lg:pb-28">
          <div className="flex flex-col items-start gap-6">
            <span className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-xs font-medium text-indigo-200">
              <span className="size-1.5 rounded-full bg-emerald-400" aria-hidden="true" />
              Content Security Policy, generated from a real crawl
            </span>
            <h1 className="text-4xl font-bold tracking-tight sm:text-5xl lg:text-6xl">CSP Generator</h1>
            <p className="max-w-xl text-lg leading-relaxed text-slate-300">
              Generate robust Content Security Policies for your websites with advanced web scraping and
              real-time analysis
            </p>
            <div className="flex flex-wrap items-center gap-3 pt-2">
              <Link to="/auth" className={buttonVariants({ size: 'lg' })}>
                Get Started
                <ArrowRight aria-hidden="true" />
              </Link>
              <a
                href="#features"
                className="inline-flex h-11 items-center rounded-lg px-4 text-sm font-medium text-slate-300 transition-colors hover:bg-white/10 hover:text-white"
              >
                See how it works
              </a>
            </div>
          </div>

          <PolicyPreview />
        </div>
      </section>

      <main className="flex-1">
        <section
          id="features"
          className="mx-auto w-full max-w-6xl scroll-mt-8 px-4 py-16 sm:px-6 sm:py-24 lg:px-8"
        >
          <div className="mx-auto flex max-w-2xl flex-col items-center gap-3 text-center">
            <p className="text-sm font-semibold text-primary">Why teams use it</p>
            <h2 className="text-3xl font-semibold tracking-tight text-foreground sm:text-4xl">
              From crawl to enforced policy
            </h2>
            <p className="text-base text-muted-foreground">
              Stop hand-writing allowlists. Let the crawler record what your pages need and get a policy you
              can deploy with confidence.
            </p>
          </div>
          <div className="mt-12 grid gap-6 md:grid-cols-3">
            {FEATURES.map(({ icon: Icon, title, text }) => (
              <article
                key={title}
                className="flex flex-col gap-4 rounded-xl border border-border bg-card p-6 shadow-sm"
              >
                <span className="flex size-11 items-center justify-center rounded-lg bg-primary-soft text-primary ring-1 ring-primary/10">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="text-lg font-semibold text-foreground">{title}</h3>
                <p className="text-sm leading-relaxed text-muted-foreground">{text}</p>
              </article>
            ))}
          </div>
        </section>

        <section className="mx-auto w-full max-w-6xl px-4 pb-16 sm:px-6 sm:pb-24 lg:px-8">
          <div className="relative isolate overflow-hidden rounded-2xl bg-gradient-to-br from-indigo-600 via-indigo-700 to-slate-900 px-6 py-12 text-white shadow-xl sm:px-12 sm:py-16">
            <div
              aria-hidden="true"
              className="absolute -top-24 -right-24 -z-10 size-72 rounded-full bg-white/10 blur-3xl"
            />
            <div className="grid items-center gap-10 lg:grid-cols-[1.3fr_1fr]">
              <div className="flex flex-col items-start gap-5">
                <h2 className="text-3xl font-semibold tracking-tight sm:text-4xl">
                  Professional CSP Generation
                </h2>
                <p className="max-w-xl text-base leading-relaxed text-indigo-100">
                  Crawl, review and export in minutes. Start in report-only mode, learn from real violation
                  reports, then enforce a policy your browser has already verified.
                </p>
                <Link to="/auth" className={buttonVariants({ variant: 'inverted', size: 'lg' })}>
                  Start Free Analysis
                  <ArrowRight aria-hidden="true" />
                </Link>
              </div>
              <ul className="flex flex-col gap-3 text-sm text-indigo-50">
                {[
                  'Sitemap discovery and same-site crawling',
                  'Hashes for inline scripts and styles',
                  'Violation reports turned into suggestions',
                  'Exports for Apache, Nginx and IIS',
                ].map((item) => (
                  <li key={item} className="flex items-center gap-3">
                    <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-white/15">
                      <Check className="size-3.5" aria-hidden="true" />
                    </span>
                    {item}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t border-border bg-card">
        <div className="mx-auto flex w-full max-w-6xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:px-6 lg:px-8">
          <Logo className="text-sm" />
          <p>Built for web developers and security engineers.</p>
        </div>
      </footer>
    </div>
  );
}

function PolicyPreview() {
  return (
    <figure
      className="w-full overflow-hidden rounded-xl border border-white/10 bg-slate-900/80 shadow-2xl ring-1 ring-white/5 backdrop-blur"
      aria-label="Example of a generated policy"
    >
      <div className="flex items-center gap-2 border-b border-white/10 px-4 py-3">
        <span className="size-2.5 rounded-full bg-red-400/80" aria-hidden="true" />
        <span className="size-2.5 rounded-full bg-amber-400/80" aria-hidden="true" />
        <span className="size-2.5 rounded-full bg-emerald-400/80" aria-hidden="true" />
        <span className="ml-2 flex min-w-0 items-center gap-2 truncate text-xs text-slate-400">
          <FileCode className="size-3.5 shrink-0" aria-hidden="true" />
          Generated policy · example.com
        </span>
      </div>
      <pre className="overflow-x-auto px-4 py-4 font-mono text-[12.5px] leading-6 text-slate-300">
        <code>
          <span className="text-slate-500">Content-Security-Policy:</span>
          {'\n'}
          {POLICY_LINES.map(([directive, sources]) => (
            <span key={directive} className="block pl-3">
              <span className="text-indigo-300">{directive}</span>{' '}
              <span className="text-emerald-300">{sources}</span>
              <span className="text-slate-500">;</span>
            </span>
          ))}
        </code>
      </pre>
      <figcaption className="flex flex-wrap items-center gap-2 border-t border-white/10 px-4 py-3 text-xs">
        <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-400/10 px-2 py-0.5 font-medium text-emerald-300 ring-1 ring-emerald-400/20">
          <ShieldCheck className="size-3.5" aria-hidden="true" />
          Valid
        </span>
        <span className="text-slate-400">42 pages crawled · 118 resources · 0 high-severity findings</span>
      </figcaption>
    </figure>
  );
}
