// The form fields the agent forms repeat: a labelled text input, and the visibility choice.
export function TextField({
  label,
  name,
  value,
  onValue,
  url,
  required,
}: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  /** An input of type url (checked by the browser before the form is sent). */
  url?: boolean;
  required?: boolean;
}) {
  const props = {
    name,
    required,
    value,
    onInput: (e: { currentTarget: HTMLInputElement }) => onValue(e.currentTarget.value),
  };
  return (
    <label>
      {label}
      {url ? <input type="url" {...props} /> : <input {...props} />}
    </label>
  );
}

export type Visibility = 'private' | 'public';

export function VisibilityField({
  value,
  onValue,
}: {
  value: Visibility;
  onValue: (value: Visibility) => void;
}) {
  return (
    <label>
      Visibility
      <select
        name="visibility"
        value={value}
        onChange={(e) => onValue(e.currentTarget.value as Visibility)}
      >
        <option value="private">private</option>
        <option value="public">public (in the directory)</option>
      </select>
    </label>
  );
}
