import type { Command } from 'commander';
import { contextFor, type CommandContext, type GlobalOptions } from './context.js';
import type { CliIo } from './io.js';

/** Options of one command as commander parsed them (kebab-case flags in camelCase). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Opts = Record<string, any>;

/** A command's body: gets its context, positional arguments and options; returns an exit status (default 0). */
export type Handler = (ctx: CommandContext, args: string[], opts: Opts) => Promise<number | void>;

/** Turns handlers into commander actions that build the context and record the exit status. */
export interface Kit {
  readonly io: CliIo;
  act(handler: Handler): (...commanderArgs: unknown[]) => Promise<void>;
}

/** The exit status the last action asked for; read by `runCli` after parsing. */
export interface RunState {
  code: number;
  /** No API key came from a flag, a profile or the environment (a 401 then hints `ledger login`). */
  tokenMissing?: boolean;
}

/** A {@link Kit} for one run of the program. */
export function kitFor(io: CliIo, state: RunState): Kit {
  return {
    io,
    act(handler) {
      return async (...commanderArgs) => {
        const command = commanderArgs[commanderArgs.length - 1] as Command;
        const positionals = commanderArgs.slice(0, -2).flat() as string[];
        const globals = command.optsWithGlobals() as GlobalOptions & Opts;
        const ctx = await contextFor(io, globals);
        state.tokenMissing = ctx.settings.token === undefined;
        const code = await handler(ctx, positionals, globals);
        state.code = typeof code === 'number' ? code : 0;
      };
    },
  };
}

/** Appends an "Examples" section to a command's `--help`. */
export function examples(command: Command, lines: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
