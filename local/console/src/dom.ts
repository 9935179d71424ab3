/** A few DOM helpers: enough to build the console's views without a framework. */

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/**
 * Creates an element: attributes by name (`on…` functions become listeners, `true` an empty
 * attribute, `false`/undefined nothing), then children (strings become text, never HTML).
 *
 * @example h('button', { class: 'primary', onclick: () => save() }, 'Save')
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else if (value !== undefined && value !== false) el.setAttribute(name, String(value));
  }
  append(el, ...children);
  return el;
}

export function append(parent: Element, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces everything inside `el`. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, ...children);
}

/** A message box for a failed call; `role=alert` so screen readers (and tests) find it. */
export const errorBox = (error: unknown) => h('p', { class: 'error', role: 'alert' }, messageOf(error));

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** "3 minutes ago", or the date for anything older than a day. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(iso).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * Runs `action` with `button` disabled, showing a failure in `status` (if given) instead of
 * throwing: a click handler has nobody to throw to. When it has finished (drawn or failed), the
 * button's `data-settled` counts one more: what browser tests wait for after a click, as they wait
 * for main's `data-ready` after opening a view — a redraw may have replaced the button by then.
 */
export async function busy(button: HTMLButtonElement, status: Element | undefined, action: () => Promise<void>): Promise<void> {
  button.disabled = true;
  try {
    if (status) replace(status);
    await action();
  } catch (error) {
    if (status) replace(status, errorBox(error));
    else console.error(error);
  } finally {
    button.disabled = false;
    button.dataset.settled = String(Number(button.dataset.settled ?? 0) + 1);
  }
}
