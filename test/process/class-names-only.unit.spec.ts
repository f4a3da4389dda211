// The server bundle's class-only `keepNames` (scripts/class-names-only.mjs): over esbuild's real
// output, a class keeps its source name even where bundling renamed its binding (Nest reads
// class names for log contexts and messages, @nestjs/swagger for schema names), while closures
// created per call are no longer renamed through `Object.defineProperty`.
import { build } from 'esbuild';
// @ts-expect-error -- a build script in plain JavaScript, without declarations
import { classNamesOnly } from '../../scripts/class-names-only.mjs';

const SOURCE = `
  const a = (() => { class Service { static make() { return new Service(); } } return Service; })();
  class Service {}
  let Decorated = class Decorated {};
  Decorated = ((c) => c)(Decorated);
  const makeClosure = () => { const inner = (x) => x + 1; return inner; };
  module.exports = { names: [a.name, Service.name, Decorated.name], makeClosure };
`;

/**
 * Bundles SOURCE as the server is bundled (keepNames on), applies the rewrite or not, runs it,
 * and counts the `name` properties defined while two closures are made after loading.
 */
async function bundled(rewrite: boolean) {
  const { outputFiles } = await build({
    stdin: { contents: SOURCE, loader: 'js' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    keepNames: true,
    write: false,
    outfile: 'out.js',
  });
  const code = rewrite ? String(classNamesOnly(outputFiles)[0].contents) : outputFiles[0]!.text;
  let namesDefined = 0;
  const spy = Object.create(Object, {
    defineProperty: {
      value: (target: object, key: PropertyKey, d: PropertyDescriptor) => {
        if (key === 'name') namesDefined++;
        return Object.defineProperty(target, key, d);
      },
    },
  }) as ObjectConstructor;
  const module = { exports: {} as { names: string[]; makeClosure: () => unknown } };
  new Function('module', 'Object', code)(module, spy);
  const before = namesDefined;
  module.exports.makeClosure();
  module.exports.makeClosure();
  return { names: module.exports.names, closuresRenamed: namesDefined - before };
}

describe('class-names-only rewrite of the server bundle', () => {
  it('keeps every class name, renamed bindings included', async () => {
    expect((await bundled(true)).names).toEqual(['Service', 'Service', 'Decorated']);
  });

  it('no longer renames closures created at run time, as plain keepNames does', async () => {
    expect((await bundled(false)).closuresRenamed).toBe(2);
    expect((await bundled(true)).closuresRenamed).toBe(0);
  });

  it('refuses output without the helper it expects', () => {
    expect(() =>
      classNamesOnly([{ path: '/x/main.js', text: 'export {};', contents: new Uint8Array() }]),
    ).toThrow(/__name helper found in 0 output files/);
  });
});
