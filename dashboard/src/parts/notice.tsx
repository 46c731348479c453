// Errors in words (an alert for screen readers), progress while something runs, and a secret
// shown once with a copy button.
import { useState } from 'preact/hooks';

export function ErrorNotice({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="notice error" role="alert">
      {error}
    </p>
  );
}

export function Busy({ when, label = 'Working…' }: { when: boolean; label?: string }) {
  return (
    <p class="busy" role="status" aria-live="polite">
      {when ? label : ''}
    </p>
  );
}

export function OnceSecret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard (a plain-HTTP origin): the value is selected for the user to copy by hand.
      const el = document.getElementById(`secret-${label}`) as HTMLInputElement | null;
      el?.select();
    }
  };
  return (
    <div class="secret">
      <label for={`secret-${label}`}>{label} (shown once: copy it now)</label>
      <div class="row">
        <input
          id={`secret-${label}`}
          class="mono"
          readOnly
          value={value}
          data-testid={`secret-${label}`}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
