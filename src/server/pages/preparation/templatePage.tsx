// The template authoring page: the PDF (the edited template's, or an upload), the name, the roles,
// and fields placed by clicking on the rendered pages.
import type { TemplateSummary } from '../../../service/hosting.js';
import type { FieldError } from '../../../domain/errors.js';
import { Problems } from '../kit.js';
import { Placer, PrepMain, describeField, itemsWithErrors, placerData, problemsOf } from './common.js';
import { ListRow, RowInput } from './listRow.js';

export interface TemplateFormState {
  name: string;
  roles: { key: string; label?: string }[];
  fields: unknown[];
  errors: FieldError[];
}

export const initialTemplateState = (t: TemplateSummary | undefined): TemplateFormState => ({
  name: t?.name ?? '',
  roles: t?.roles ?? [],
  fields: t?.fields ?? [],
  errors: [],
});

export const templateTitle = (editing: TemplateSummary | undefined) =>
  editing ? `Edit template: ${editing.name}` : 'New template';

function RoleRow({ role, invalid }: { role: { key: string; label?: string }; invalid: boolean }) {
  return (
    <ListRow kind="role" invalid={invalid}>
      <RowInput label="Key" name="role_key" value={role.key} required />
      <RowInput label="Label" name="role_label" value={role.label ?? ''} />
    </ListRow>
  );
}

function describe(field: string): string {
  const r = /^roles\[(\d+)\]\.?(.*)$/.exec(field);
  if (r) return `Role ${Number(r[1]) + 1}${r[2] ? ` (${r[2]})` : ''}`;
  return (
    describeField(field) ??
    { name: 'Name', pdf: 'PDF', roles: 'Roles', fields: 'Fields', filename: 'PDF' }[field] ??
    field
  );
}

export function TemplatePage({
  base,
  editing,
  state,
}: {
  base: string;
  editing: TemplateSummary | undefined;
  state: TemplateFormState;
}) {
  const badRoles = itemsWithErrors(state.errors, 'roles');
  const pdfUrl = editing ? `${base}/template.pdf` : null;
  const data = placerData('template', base, pdfUrl, state, '');
  return (
    <>
      <header>
        <h1>{templateTitle(editing)}</h1>
        <p>Name the template, add the signer roles, and click on the pages to place fields.</p>
      </header>
      <PrepMain data={data}>
        <Problems items={problemsOf(state.errors, describe)} />
        <form id="prep-form" method="post" action={`${base}/template`} enctype="multipart/form-data" novalidate>
          <section class="stack">
            <h2>Template</h2>
            <label for="name">
              Name <input type="text" id="name" name="name" value={state.name} required />
            </label>
            <label for="pdf">
              {editing ? 'Replace the PDF (optional)' : 'PDF'}{' '}
              <input type="file" id="pdf" name="pdf" accept="application/pdf,.pdf" />
            </label>
            {editing && <p class="hint">Without a new PDF, the template keeps its current one (shown below).</p>}
          </section>
          <section>
            <h2>Roles</h2>
            <p class="hint">
              The signers this template is written for, e.g. key <code>client</code>, label "Client".
            </p>
            <div id="roles">
              {state.roles.map((r, i) => (
                <RoleRow role={r} invalid={badRoles.has(i)} />
              ))}
            </div>
            <template id="roles-template">
              <RoleRow role={{ key: '', label: '' }} invalid={false} />
            </template>
            <button type="button" class="secondary" data-add-row="roles" id="add-role">
              Add role
            </button>
          </section>
          <Placer intro="Choose the kind of field, then click on a page where it goes (its top-left corner). Drag a field to move it; set its details in the list." />
          <div class="actions">
            <button type="submit" id="save">
              Save template
            </button>
          </div>
        </form>
      </PrepMain>
    </>
  );
}
