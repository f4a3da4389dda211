import { readFileSync } from 'node:fs';

/**
 * A predicate for the paths (relative to the build context, `/`-separated) a `.dockerignore`
 * leaves out: a pattern excludes the paths it matches and everything under them; `*` and `?` stay
 * within one path segment, `**` spans any number
 * (https://docs.docker.com/build/concepts/context/#dockerignore-files).
 * @throws Error for a `!` exception, which this reading does not implement.
 */
export function dockerignore(path: string): (relative: string) => boolean {
  const patterns = readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const regexes = patterns.map((p) => {
    if (p.startsWith('!')) throw new Error(`.dockerignore exceptions are not supported here: ${p}`);
    const body = p
      .replace(/^\/+|\/+$/g, '')
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*/g, '\0')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]')
      .replace(/\0/g, '.*');
    return new RegExp(`^${body}(/.*)?$`);
  });
  return (relative) => regexes.some((r) => r.test(relative));
}
