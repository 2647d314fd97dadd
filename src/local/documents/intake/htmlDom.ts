// Small helpers over parse5's default tree, shared by the HTML renderers.
import type { DefaultTreeAdapterTypes as T } from 'parse5';

/** The paper of both renderers: US Letter with 0.5 in margins, in points. */
export const PAGE = { width: 612, height: 792, margin: 36 } as const;

export type Doc = T.Document;
export type El = T.Element;
export type ChildNode = T.ChildNode;
export type ParentNode = T.ParentNode;

export const isElement = (n: T.Node): n is El => 'tagName' in n;
export const isText = (n: T.Node): n is T.TextNode => n.nodeName === '#text';

export const attr = (el: El, name: string): string | undefined => el.attrs.find((a) => a.name === name)?.value;

export function setAttr(el: El, name: string, value: string): void {
  const a = el.attrs.find((x) => x.name === name);
  if (a) a.value = value;
  else el.attrs.push({ name, value });
}

export function removeAttr(el: El, name: string): void {
  el.attrs = el.attrs.filter((a) => a.name !== name);
}

/** Elements under `root` in document order (template contents are not children in parse5, so they are skipped). */
export function* elements(root: ParentNode): Generator<El> {
  for (const n of root.childNodes) {
    if (!isElement(n)) continue;
    yield n;
    yield* elements(n);
  }
}

export const FORM_CONTROLS = new Set(['input', 'textarea', 'select', 'button', 'option', 'optgroup', 'datalist']);

/** Text content with whitespace collapsed; `skip` leaves out matching subtrees (e.g. form controls inside a label). */
export function textOf(node: ParentNode | ChildNode, skip?: (el: El) => boolean): string {
  const parts: string[] = [];
  const visit = (n: ParentNode | ChildNode) => {
    if (isText(n)) parts.push(n.value);
    else if ('childNodes' in n && !(isElement(n) && skip?.(n))) n.childNodes.forEach(visit);
  };
  visit(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** Whether the element is not displayed according to its own markup (hidden attribute, inline display:none, hidden input). */
export function isHidden(el: El): boolean {
  if (attr(el, 'hidden') !== undefined) return true;
  if (/(^|;)\s*display\s*:\s*none\b/i.test(attr(el, 'style') ?? '')) return true;
  return el.tagName === 'input' && (attr(el, 'type') ?? '').toLowerCase() === 'hidden';
}

/** A length from the element's inline style (px, pt, em or in), in points; undefined when absent or relative. */
export function styleLength(el: El, prop: 'width' | 'height', em = 12): number | undefined {
  const m = new RegExp(`(?:^|;)\\s*${prop}\\s*:\\s*([\\d.]+)\\s*(px|pt|em|rem|in|cm|mm)\\b`, 'i').exec(
    attr(el, 'style') ?? '',
  );
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2]!.toLowerCase();
  const pt =
    unit === 'px'
      ? n * 0.75
      : unit === 'pt'
        ? n
        : unit === 'in'
          ? n * 72
          : unit === 'cm'
            ? (n * 72) / 2.54
            : unit === 'mm'
              ? (n * 72) / 25.4
              : n * em;
  return Number.isFinite(pt) && pt > 0 ? pt : undefined;
}

/** "250 ms", "30 s": for timeout messages. */
export const duration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`);
