// "Download evidence" in the Scripts panel: the export an assessor asks for (the inventory with its
// justifications, the authorization history, the change log and the alerts of a period), as CSV for a
// spreadsheet or JSON for a tool. Owner and team members alike may download it.
import { EVIDENCE_LIMITS, type EvidenceFormat } from '@csp/shared/schemas/evidence';
import { Download } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { ApiError } from '@/lib/api-client';
import { downloadText } from '@/lib/download';
import { fetchEvidence } from '../api/download-evidence';

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const FORMATS: { value: EvidenceFormat; label: string }[] = [
  { value: 'csv', label: 'CSV' },
  { value: 'json', label: 'JSON' },
];

export function EvidenceDownload({ domainId }: { domainId: string }) {
  const formId = useId();
  const [open, setOpen] = useState(false);
  const today = dayOf(Date.now());
  const [from, setFrom] = useState(() => dayOf(Date.now() - (EVIDENCE_LIMITS.defaultDays - 1) * DAY_MS));
  const [to, setTo] = useState(today);
  const [format, setFormat] = useState<EvidenceFormat>('csv');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      const file = await fetchEvidence(domainId, { format, from, to });
      downloadText(file.filename, file.content, file.type);
      setOpen(false);
    } catch (err) {
      setError(err instanceof ApiError ? err.serverMessage || err.message : (err as Error).message);
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <Download aria-hidden="true" />
        Download evidence
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Download evidence"
        description={`The script inventory with its justifications, and the authorization history, changes and alerts of a period of up to ${EVIDENCE_LIMITS.maxDays} days, for an assessor.`}
        footer={
          <>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" form={formId} loading={pending}>
              Download
            </Button>
          </>
        }
      >
        <form id={formId} onSubmit={submit} className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id={`${formId}-from`} label="From">
              <Input type="date" value={from} max={to} required onChange={(e) => setFrom(e.target.value)} />
            </Field>
            <Field id={`${formId}-to`} label="To">
              <Input
                type="date"
                value={to}
                min={from}
                max={today}
                required
                onChange={(e) => setTo(e.target.value)}
              />
            </Field>
          </div>
          <SegmentedControl
            label="Format"
            className="self-start"
            value={format}
            onValueChange={setFormat}
            options={FORMATS}
          />
          <FormError message={error} />
        </form>
      </Dialog>
    </>
  );
}
