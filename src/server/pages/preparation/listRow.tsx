// A row of a list the user grows and shrinks on a preparation page (signers, template roles).
import type { ComponentChildren, InputHTMLAttributes } from 'preact';

/** One row of a list the user grows and shrinks (signers, roles), with its Remove button. */
export function ListRow({ kind, invalid, children }: { kind: string; invalid: boolean; children: ComponentChildren }) {
  return (
    <div class={invalid ? `row ${kind} invalid` : `row ${kind}`}>
      {children}
      <button type="button" class="link remove-row">
        Remove
      </button>
    </div>
  );
}

/** A labelled input of such a row (text unless `type` says otherwise). */
export function RowInput({ label, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label class="hint">
      {label} <input type="text" {...input} />
    </label>
  );
}
