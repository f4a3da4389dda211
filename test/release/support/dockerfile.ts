import { readFileSync } from 'node:fs';

/** One instruction of a Dockerfile: its keyword (upper case) and its argument text. */
export interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** A stage: `FROM <image> [AS <name>]` and the instructions after it. */
export interface Stage {
  readonly name: string | null;
  readonly image: string;
  readonly instructions: readonly Instruction[];
}

/** `COPY [--from=<stage>] <source>… <destination>` (shell form only). */
export interface Copy {
  readonly from: string | null;
  readonly sources: readonly string[];
  readonly destination: string;
}

/**
 * The stages of a Dockerfile: comments dropped, `\` continuations joined
 * (https://docs.docker.com/reference/dockerfile/#format).
 */
export function parseDockerfile(path: string): Stage[] {
  const lines = readFileSync(path, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: { name: string | null; image: string; instructions: Instruction[] }[] = [];
  for (const line of lines) {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    if (keyword!.toUpperCase() === 'FROM') {
      const [image, as, name] = args!.split(/\s+/);
      stages.push({ image: image!, name: as?.toUpperCase() === 'AS' ? name! : null, instructions: [] });
    } else {
      stages.at(-1)!.instructions.push({ keyword: keyword!.toUpperCase(), args: args! });
    }
  }
  return stages;
}

/** The instructions of `stage` with `keyword`. */
export const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);

/** A COPY instruction's parts. */
export function parseCopy(args: string): Copy {
  const words = args.split(/\s+/);
  const from = words[0]!.startsWith('--from=') ? words.shift()!.slice('--from='.length) : null;
  return { from, sources: words.slice(0, -1), destination: words.at(-1)! };
}

/** `ENV a=1 b=2` (the `key=value` form) as an object. */
export function parseEnv(args: string): Record<string, string> {
  return Object.fromEntries(args.split(/\s+/).map((pair) => pair.split('=', 2) as [string, string]));
}

/** An exec-form argument (`["node", "x.js"]`) as its words; `--flags` before it are dropped. */
export function execForm(args: string): string[] {
  return JSON.parse(args.slice(args.indexOf('['))) as string[];
}
