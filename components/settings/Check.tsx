/** A labelled checkbox of the settings forms. */
export function Check(
  props: {
    label: string;
    checked: boolean;
    onChange: (on: boolean) => void;
    disabled?: boolean;
    name?: string;
  },
) {
  return (
    <label class="settings-check">
      <input
        type="checkbox"
        name={props.name}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange((e.currentTarget as HTMLInputElement).checked)}
      />
      <span>{props.label}</span>
    </label>
  );
}
