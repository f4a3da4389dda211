// Part of scripts/bundle-server.mjs: esbuild's `keepNames` for classes only.
//
// With `keepNames`, esbuild keeps the original `.name` of every class and function it renames
// (https://esbuild.github.io/api/#keep-names) by calling its `__name` helper, which redefines the
// `name` property: once for a class (in a static block) but, for a function or arrow function
// inside another function, each time the enclosing function runs — on a request's hot path, a
// property definition per closure created. Only class names matter to the server: Nest names
// modules, providers, controllers and its log contexts (`InstanceLoader`, `RoutesResolver`, which
// PinoNestLogger moves to debug) by them, and @nestjs/cqrs and @nestjs/swagger use them in messages
// and schema names. Without `keepNames`, esbuild renames the inner name TypeScript gives a decorated
// class (`let X = class X`) to `X2`, and a class that refers to itself to `_X`. Function names are
// renamed only when two would collide in one scope, and nothing reads them.
//
// So the bundle keeps `keepNames`, and each output file is rewritten: the class call sites
// (`static { __name(this, "X"); }`, the only calls esbuild makes with `this`) pass a third
// argument, and the helper applies names only to calls that pass it, returning every other
// target unchanged. Rewrites stay within their lines, so the source maps still hold.

/** The helper as esbuild (0.2x) emits it, once, in the chunk every other output file imports it from. */
export const NAME_HELPER =
  'var __name = (target, value) => __defProp(target, "name", { value, configurable: true });';

/** Its replacement: a name only for a class (third argument), any other target as it was. */
const CLASS_NAME_HELPER =
  'var __name = (target, value, cls) => cls ? __defProp(target, "name", { value, configurable: true }) : target;';

const CLASS_CALL = /__name\(this, ("(?:[^"\\]|\\.)*")\)/g;

/**
 * `files` (esbuild output files: `{ path, text }`) with the rewrite above applied to the `.js`
 * ones; returns `{ path, contents }` pairs to write.
 * @throws Error when no file, or more than one, defines the helper as expected (an esbuild whose
 *   output differs): the bundle would otherwise silently lose or keep every function's `__name`.
 */
export function classNamesOnly(files) {
  let helpers = 0;
  const out = files.map((file) => {
    if (!file.path.endsWith('.js')) return { path: file.path, contents: file.contents };
    let text = file.text;
    if (text.includes(NAME_HELPER)) {
      helpers++;
      text = text.replace(NAME_HELPER, CLASS_NAME_HELPER);
    }
    return { path: file.path, contents: text.replace(CLASS_CALL, '__name(this, $1, 1)') };
  });
  if (helpers !== 1)
    throw new Error(`class-names-only: esbuild's __name helper found in ${helpers} output files, expected 1`);
  return out;
}
