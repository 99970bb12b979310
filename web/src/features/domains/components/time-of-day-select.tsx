// A time of day as the schedule stores it ("HH:MM", 24 h): an hour and a minute picked from lists. Not the
// browser's time input: it shows the time in the browser's locale (06:00 AM in an American one) where the
// product writes 24 h times ("06:00 UTC"), and on first use it loads the locale's date data, about 9 ms of
// main-thread work without throttling (several times that on a phone) in the render of the domain screen's
// Monitoring panel.
import type { ComponentProps } from 'react';
import { Select } from '@/components/ui/input';

const pad = (n: number) => String(n).padStart(2, '0');
const HOURS = Array.from({ length: 24 }, (_, h) => pad(h));
const MINUTES = Array.from({ length: 60 }, (_, m) => pad(m));

type Props = Omit<ComponentProps<'select'>, 'value' | 'onChange'> & {
  /** "HH:MM" */
  value: string;
  onChange: (value: string) => void;
};

/** The hour's select takes the field's id (its label); both carry the field's invalid and described-by state. */
export function TimeOfDaySelect({ id, value, onChange, disabled, ...aria }: Props) {
  const [hour = '00', minute = '00'] = value.split(':');
  return (
    <div className="flex items-center gap-2">
      <Select
        id={id}
        aria-label="Hour"
        value={hour}
        disabled={disabled}
        onChange={(e) => onChange(`${e.target.value}:${minute}`)}
        className="min-w-0 flex-1"
        {...aria}
      >
        {HOURS.map((h) => (
          <option key={h} value={h}>
            {h}
          </option>
        ))}
      </Select>
      <span aria-hidden="true" className="text-sm font-medium text-muted-foreground">
        :
      </span>
      <Select
        aria-label="Minute"
        value={minute}
        disabled={disabled}
        onChange={(e) => onChange(`${hour}:${e.target.value}`)}
        className="min-w-0 flex-1"
        {...aria}
      >
        {MINUTES.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </Select>
    </div>
  );
}
