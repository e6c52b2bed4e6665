import type { AppShellProps } from "../framework/router.ts";

/** Temporary document shell; the UI replaces it. */
export default function App(props: AppShellProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title ?? "File Browser"}</title>
      </head>
      <body>{props.children as preact.ComponentChildren}</body>
    </html>
  );
}
