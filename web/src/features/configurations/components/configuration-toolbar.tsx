// Choosing a saved configuration, and New, Save and Delete (spec "CSP rules generator panel").
import type { Configuration } from '@csp/shared/schemas/configuration';
import { FilePlus2, Save, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Select } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

const NEW = '';

export function ConfigurationToolbar({
  configurations,
  selectedId,
  dirty,
  canSave,
  saving,
  deleting,
  onSelect,
  onNew,
  onSave,
  onDelete,
  readOnly = false,
}: {
  configurations: Configuration[];
  selectedId: string | null;
  dirty: boolean;
  canSave: boolean;
  saving: boolean;
  deleting: boolean;
  onSelect: (id: string) => void;
  onNew: () => void;
  onSave: () => void;
  onDelete: () => Promise<unknown>;
  /** A team member: may load and try configurations (and download them), not save or delete. */
  readOnly?: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const selected = configurations.find((c) => c.id === selectedId);
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <Label htmlFor="saved-configuration">Saved configuration</Label>
        <Select
          id="saved-configuration"
          value={selectedId ?? NEW}
          onChange={(e) => (e.target.value === NEW ? onNew() : onSelect(e.target.value))}
          data-testid="configuration-select"
        >
          <option value={NEW}>New configuration (not saved)</option>
          {configurations.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} · grade {c.audit.grade}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={onNew} data-testid="configuration-new">
          <FilePlus2 aria-hidden="true" />
          New
        </Button>
        {readOnly ? (
          <p className="self-center text-xs text-muted-foreground" data-testid="configuration-read-only">
            Only the team owner can save or delete configurations.
          </p>
        ) : (
          <>
            <Button onClick={onSave} disabled={!canSave || saving} data-testid="configuration-save">
              <Save aria-hidden="true" />
              {saving ? 'Saving...' : selectedId ? (dirty ? 'Save changes' : 'Save') : 'Save'}
            </Button>
            <Button
              variant="outline"
              className="text-destructive hover:bg-red-50 hover:text-destructive"
              onClick={() => setConfirming(true)}
              disabled={!selected || deleting}
              data-testid="configuration-delete"
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          </>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => {
          if (!deleting) setConfirming(next);
        }}
        title="Delete this configuration?"
        description={
          <>
            <span className="font-medium text-foreground">{selected?.name}</span> will be deleted permanently.
            Analyses and reports stay.
          </>
        }
        confirmLabel="Delete"
        destructive
        pending={deleting}
        onConfirm={() => void onDelete().finally(() => setConfirming(false))}
      />
    </div>
  );
}
