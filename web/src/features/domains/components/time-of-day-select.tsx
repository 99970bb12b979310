// A time of day as the schedule stores it ("HH:MM", 24 h): an hour and a minute picked from lists. Not the
// browser's time input: it shows the time in the browser's locale (06:00 AM in an American one) where the
// product writes 24 h times ("06:00 UTC"), and on first use it loads the locale's date data, about 9 ms of
// main-thread work without throttling (several times that on a phone) in the render of the domain screen's
// Monitoring panel.
import { type ComponentProps, Fragment } from 'react';
import { Select } from '@/components/ui/input';
import { twoDigits } from '@/lib/format';

const HOURS = Array.from({ length: 24 }, (_, h) => twoDigits(h));
const MINUTES = Array.from({ length: 60 }, (_, m) => twoDigits(m));

type Props = Omit<ComponentProps<'select'>, 'value' | 'onChange'> & {
  /** "HH:MM" */
  value: string;
  onChange: (value: string) => void;
};

/** The hour's select takes the field's id (its label); both carry the field's invalid and described-by state. */
export function TimeOfDaySelect({ id, value, onChange, disabled, ...aria }: Props) {
  const [hour = '00', minute = '00'] = value.split(':');
  const parts = [
    { label: 'Hour', value: hour, choices: HOURS, change: (h: string) => `${h}:${minute}` },
    { label: 'Minute', value: minute, choices: MINUTES, change: (m: string) => `${hour}:${m}` },
  ];
  return (
    <div className="flex items-center gap-2">
      {parts.map((part, i) => (
        <Fragment key={part.label}>
          {i > 0 ? (
            <span aria-hidden="true" className="text-sm font-medium text-muted-foreground">
              :
            </span>
          ) : null}
          <Select
            id={i === 0 ? id : undefined}
            aria-label={part.label}
            value={part.value}
            disabled={disabled}
            onChange={(e) => onChange(part.change(e.target.value))}
            className="min-w-0 flex-1"
            {...aria}
          >
            {part.choices.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </Select>
        </Fragment>
      ))}
    </div>
  );
}
