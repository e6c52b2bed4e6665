import { useState } from "react";

/**
 * A list of strings edited as text: `lines` gives a textarea split on newlines, otherwise a text field split on
 * spaces; the text keeps what is typed (spaces, blank lines), the list drops empties.
 */
export function ListInput(
  props: {
    value: string[];
    onChange: (list: string[]) => void;
    split: (text: string) => string[];
    lines?: boolean;
    name?: string;
    label?: string;
  },
) {
  const [text, setText] = useState(() => props.value.join(props.lines ? "\n" : " "));
  const onInput = (e: Event) => {
    const v = (e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value;
    setText(v);
    props.onChange(props.split(v));
  };
  return props.lines
    ? (
      <textarea
        class="input"
        rows={3}
        name={props.name}
        aria-label={props.label}
        value={text}
        onInput={onInput}
      />
    )
    : (
      <input
        class="input"
        type="text"
        name={props.name}
        aria-label={props.label}
        value={text}
        onInput={onInput}
      />
    );
}
