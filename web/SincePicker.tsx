// The registry pages' window: how far back the usage figures count.
const CHOICES = [
  ['24h', 'last 24 hours'],
  ['7d', 'last 7 days'],
  ['30d', 'last 30 days'],
  ['90d', 'last 90 days'],
] as const;

export function SincePicker({ value, onChange }: { value: string; onChange(since: string): void }) {
  return (
    <label className="since-picker">
      <span className="sr-only">Usage over</span>
      <select value={value} data-testid="registry-since" onChange={(e) => onChange(e.target.value)}>
        {CHOICES.map(([since, label]) => (
          <option key={since} value={since}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}
