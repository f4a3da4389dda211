/** A configuration value was missing or malformed; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * An integer variable within [`min`, `max`], or `fallback` when unset or empty.
 * @throws ConfigError naming the variable.
 */
export function intVar(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** An on/off switch: `on`/`true`/`1` or `off`/`false`/`0`. @throws ConfigError naming the variable. */
export function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['on', 'true', '1'].includes(raw)) return true;
  if (['off', 'false', '0'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}
