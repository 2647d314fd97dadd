// The signing page's script (served as /assets/signing.js). Hints only: it counts the required
// fields left and marks them; the server checks every rule and answers with the errors in place.
import { moveToSessionUrl } from './session.js';

moveToSessionUrl();

const form = document.getElementById('sign-form') as HTMLFormElement | null;
const left = document.getElementById('left');

function empty(box: Element): boolean {
  const el = box.querySelector<HTMLInputElement | HTMLTextAreaElement>('input,textarea');
  if (!el) return false;
  if (el instanceof HTMLInputElement && el.type === 'checkbox') return !el.checked;
  if (el instanceof HTMLInputElement && el.type === 'file')
    return (el.files?.length ?? 0) === 0 && !box.hasAttribute('data-attached');
  return el.value.trim() === '';
}

/** Recounts the required fields left; marks `mark` (one field box, or all of them). */
function update(mark: Element | 'all' | null): void {
  if (!form || !left) return;
  let n = 0;
  form.querySelectorAll('[data-required]').forEach((box) => {
    const e = empty(box);
    if (e) n++;
    if (mark === 'all' || mark === box) box.classList.toggle('missing', e);
  });
  left.textContent = n ? `${n} required field${n === 1 ? '' : 's'} left` : '';
}

const fieldOf = (ev: Event) => (ev.target instanceof Element ? ev.target.closest('.field') : null);

if (form) {
  form.addEventListener('input', (ev) => update(fieldOf(ev)));
  form.addEventListener('change', (ev) => update(fieldOf(ev)));
  form.addEventListener('submit', () => {
    update('all');
    const b = document.getElementById('sign') as HTMLButtonElement | null;
    // After the submission has started: a disabled button would not submit.
    setTimeout(() => {
      if (!b) return;
      b.disabled = true;
      b.textContent = 'Signing…';
    }, 0);
  });
  update(null);
}
