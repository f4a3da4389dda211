import { operationIdOf } from '../operation-id.js';
import { href } from '../router.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a search text means: an operation id, or a key — `source/action/subject[@revision]` in the
 * page's tenant, or `tenant/source/action/subject[@revision]` — to open; anything else is a
 * subject prefix to filter the list by. Pure.
 */
export function searchTarget(
  text: string,
  tenant: string,
):
  | { kind: 'id'; id: string }
  | {
      kind: 'key';
      key: { tenant: string; source: string; action: string; subject: string; revision: number };
    }
  | { kind: 'prefix'; prefix: string } {
  const q = text.trim();
  if (UUID.test(q)) return { kind: 'id', id: q.toLowerCase() };
  const parts = q.split('/');
  if (parts.length >= 3 && parts.every((p) => p !== '')) {
    const [t, rest] = parts.length === 3 ? [tenant, parts] : [parts[0]!, parts.slice(1)];
    const last = rest.slice(2).join('/');
    const at = /^(.*)@(\d+)$/.exec(last);
    return {
      kind: 'key',
      key: {
        tenant: t,
        source: rest[0]!,
        action: rest[1]!,
        subject: at ? at[1]! : last,
        revision: at ? Number(at[2]) : 1,
      },
    };
  }
  return { kind: 'prefix', prefix: q };
}

/**
 * One search box for the operations list: an operation id or a key opens that operation; other
 * text filters the list by subject prefix (`order:81` finds order:812, order:813, …).
 */
export function SearchBox({ tenant, onPrefix }: { tenant: string; onPrefix: (prefix: string) => void }) {
  return (
    <form
      class="filters key-search"
      data-testid="search"
      onSubmit={(e) => {
        e.preventDefault();
        const target = searchTarget(String(new FormData(e.currentTarget).get('q') ?? ''), tenant);
        if (target.kind === 'prefix') return onPrefix(target.prefix);
        const open = (id: string) => (location.hash = href({ page: 'operation', id }));
        if (target.kind === 'id') return void open(target.id);
        open(operationIdOf(target.key));
      }}
    >
      <strong>Search</strong>
      <input
        name="q"
        class="wide"
        placeholder="subject prefix (order:81), key (shop/invoice.create/order:812) or operation id"
        aria-label="Search"
      />
      <button type="submit">Search</button>
    </form>
  );
}
