/**
 * Editing your own post in place (PATCH /activities/{id}): an "Edit" button on the row opens its
 * text in a form; "Save" sends the new text (empty: removes it) on the version shown (`If-Match`),
 * so an edit made meanwhile elsewhere is refused (412) instead of overwritten.
 */
import type { Activity } from '@tickfeed/client';
import { busy, h, replace } from './dom.js';

/** Saves new content (null: none) for the activity as shown; resolves with the activity as edited. */
export type SaveEdit = (shown: Activity, content: string | null) => Promise<Activity>;

/** The row's edit control: a button, then a form in its place; `saved` gets the edited activity. */
export function editControl(a: Activity, save: SaveEdit, saved: (edited: Activity) => void): HTMLElement {
  const holder = h('div', { class: 'edit' });
  const open = h('button', { type: 'button', 'data-testid': 'edit' }, 'Edit');
  open.addEventListener('click', () => {
    const text = h('textarea', { name: 'content', rows: 2, maxlength: 2000, 'aria-label': 'new content' });
    text.value = a.content ?? '';
    const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'save-edit' }, 'Save');
    const cancel = h('button', { type: 'button' }, 'Cancel');
    const status = h('div', { class: 'status', 'aria-live': 'polite' });
    const form = h('form', { class: 'edit-form', 'data-testid': 'edit-form' }, text, submit, cancel, status);
    cancel.addEventListener('click', () => replace(holder, open));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void busy(submit, status, async () => saved(await save(a, text.value.trim() || null)));
    });
    replace(holder, form);
    text.focus();
  });
  holder.append(open);
  return holder;
}
