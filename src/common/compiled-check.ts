import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { keepAsParsed } from './keep-as-parsed.js';

/** A compiled acceptance test of a parsed JSON body: true only when class-validator accepts it. */
export type BodyCheck = (value: unknown) => boolean;

type Ctor = abstract new (...args: never[]) => unknown;
type Metadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** DTO classes marked with {@link CompiledCheck}, and their compiled checks once built. */
const marked = new WeakSet<Ctor>();
const compiled = new WeakMap<Ctor, BodyCheck | null>();

/**
 * Marks a body DTO for the ValidationPipe's compiled fast path: a body the check accepts skips
 * class-transformer and class-validator; any other takes their path, which words the refusal.
 */
export function CompiledCheck(): ClassDecorator {
  return (target) => {
    marked.add(target as unknown as Ctor);
  };
}

/**
 * The compiled check of a DTO class marked with {@link CompiledCheck}, built on first use; null
 * when the class is not marked or uses a decorator the compiler does not know.
 */
export function compiledCheckOf(cls: unknown): BodyCheck | null {
  const ctor = cls as Ctor;
  if (!marked.has(ctor)) return null;
  let check = compiled.get(ctor);
  if (check === undefined) {
    check = compileBodyCheck(ctor);
    compiled.set(ctor, check);
  }
  return check;
}

/** Not a compilable DTO: the caller keeps class-validator's path. */
class Unsupported extends Error {}

/**
 * Compiles the class-validator metadata of `cls` into one predicate accepting exactly the plain
 * objects `validateSync(plainToInstance(cls, body), { whitelist, forbidNonWhitelisted,
 * forbidUnknownValues })` accepts, calling each decorator's own validator so no rule is written
 * twice. Nested arrays, `each`, groups, async constraints and transforms other than
 * {@link keepAsParsed} are not compiled.
 * @returns the predicate, or null when the class uses something not compiled.
 */
export function compileBodyCheck(cls: Ctor): BodyCheck | null {
  try {
    return compileClass(cls, undefined as unknown as string);
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

/** One property's test: `obj` is the object that holds `value`. */
type PropertyCheck = (obj: Record<string, unknown>, value: unknown) => boolean;

function compileClass(cls: Ctor, schema: string): BodyCheck {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(cls, schema, false, false);
  // forbidUnknownValues: an object of a class without rules is refused
  if (metadatas.length === 0) return () => false;
  if (defaultMetadataStorage.getStrategy(cls) !== 'none') throw new Unsupported();
  const grouped = storage.groupByPropertyName(metadatas);
  const names = Object.keys(grouped);
  const allowed = new Set(names);
  const checks = names.map((name) => compileProperty(cls, name, grouped[name]!));
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    if (Object.getPrototypeOf(value) !== Object.prototype) return false;
    const obj = value as Record<string, unknown>;
    for (const key in obj) if (!allowed.has(key)) return false;
    for (let i = 0; i < checks.length; i++) if (!checks[i]!(obj, obj[names[i]!])) return false;
    return true;
  };
}

function compileProperty(cls: Ctor, name: string, metadatas: Metadata[]): PropertyCheck {
  const targetName = cls.name;
  const transforms = defaultMetadataStorage.findTransformMetadatas(
    cls,
    name,
    TransformationType.PLAIN_TO_CLASS,
  );
  if (transforms.some((t) => t.transformFn !== keepAsParsed)) throw new Unsupported();
  const type = defaultMetadataStorage.findTypeMetadata(cls, name);
  const conditions: Metadata[] = [];
  const constraints: PropertyCheck[] = [];
  const nested: Metadata[] = [];
  for (const m of metadatas) {
    if ((m.groups?.length ?? 0) > 0 || m.always || m.each) throw new Unsupported();
    if (m.type === ValidationTypes.WHITELIST) continue;
    if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) conditions.push(m);
    else if (m.type === ValidationTypes.NESTED_VALIDATION) nested.push(m);
    else if (m.type === ValidationTypes.IS_DEFINED || m.type === ValidationTypes.CUSTOM_VALIDATION)
      constraints.push(compileConstraint(m, targetName));
    else throw new Unsupported();
  }
  // class-transformer builds a @Type object only where it is validated as nested, and only then
  // does the handler see an object built from the body rather than the body's own value
  if ((type !== undefined) !== nested.length > 0) throw new Unsupported();
  if (type?.options?.discriminator) throw new Unsupported();
  const nestedChecks = nested.map((m) => {
    const target = type!.typeFunction() as Ctor;
    const owner = typeof m.target === 'string' ? m.target : m.target.name;
    return compileClass(target, owner);
  });
  return (obj, value) => {
    for (const c of conditions) if (!(c.constraints[0] as PropertyCheck)(obj, value)) return true;
    for (const c of constraints) if (!c(obj, value)) return false;
    if (value === undefined) return true;
    for (const c of nestedChecks) if (!c(value)) return false;
    return true;
  };
}

/** A constraint (`@IsInt`, `@Max`, a custom `registerDecorator` one…) run by its own validator. */
function compileConstraint(m: Metadata, targetName: string): PropertyCheck {
  const storage = getMetadataStorage();
  const validators = storage.getTargetValidatorConstraints(m.constraintCls).map((c) => {
    if (c.async) throw new Unsupported();
    return c.instance;
  });
  return (obj, value) => {
    if (m.validateIf && !m.validateIf(obj, value)) return true;
    for (const v of validators) {
      const args = { targetName, property: m.propertyName, object: obj, value, constraints: m.constraints };
      // a promise (an async validator) is not a verdict: let class-validator decide
      if (v.validate(value, args) !== true) return false;
    }
    return true;
  };
}
