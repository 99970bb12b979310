// /domains/new: the Add Domain form.
import { Globe } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { BackLink } from '@/components/ui/back-link';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CreateDomainForm } from '@/features/domains/components/create-domain-form';

export function DomainsNewRoute() {
  const navigate = useNavigate();
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <BackLink />
      <Card>
        <CardHeader>
          <div className="flex items-center gap-3">
            <span className="flex size-10 items-center justify-center rounded-lg bg-primary-soft text-primary ring-1 ring-primary/10">
              <Globe className="size-5" aria-hidden="true" />
            </span>
            <div className="flex flex-col gap-1">
              <h1 className="text-xl font-semibold leading-tight tracking-tight">Add Domain</h1>
              <CardDescription>
                Register a website to crawl it and generate its Content Security Policy.
              </CardDescription>
            </div>
          </div>
        </CardHeader>
        <CardContent>
          <CreateDomainForm
            onSuccess={() => navigate('/dashboard')}
            onCancel={() => navigate('/dashboard')}
          />
        </CardContent>
      </Card>
    </div>
  );
}
