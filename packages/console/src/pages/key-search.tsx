import { operationIdOf } from '../operation-id.js';
import { href } from '../router.js';

/**
 * Find an operation by its business key: the operationId is computed here in the browser (UUID
 * v5 of the canonical key, docs/api.md "Operation identity") and its page opened.
 */
export function KeySearch({ tenant }: { tenant: string }) {
  return (
    <form
      class="filters key-search"
      data-testid="key-search"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const part = (name: string) => String(f.get(name) ?? '');
        const id = operationIdOf({
          tenant,
          source: part('source'),
          action: part('action'),
          subject: part('subject'),
          revision: Number(part('revision') || '1'),
        });
        location.hash = href({ page: 'operation', id });
      }}
    >
      <strong>Find by key</strong>
      <input name="source" placeholder="source" required aria-label="Source" />
      <input name="action" placeholder="action" required aria-label="Action" />
      <input name="subject" placeholder="subject" required aria-label="Subject" />
      <input name="revision" type="number" min={1} placeholder="1" aria-label="Revision" class="narrow" />
      <button type="submit">Open</button>
    </form>
  );
}
