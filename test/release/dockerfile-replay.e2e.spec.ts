// Replays the Dockerfile without a container engine (none runs here, and no base image can be
// pulled), reading every step from the file itself so the test follows it:
// - build stage: the build context is the repository minus .dockerignore; every COPY source must
//   exist there; the workspace manifests must be copied before `npm ci`; and every file the build
//   reads — each workspace, the server's TypeScript project (tsconfig.build.json, what it extends
//   and includes) and the scripts the root `build` runs — must be in the stage's COPY set.
//   The RUN steps themselves are not re-run: `npm ci` installs the lockfile this checkout's
//   node_modules came from, and `npm run build` is what `npm ci`'s `prepare` already ran here, so
//   their result is this checkout's node_modules, dist/ and packages/*/dist (a second install and
//   build would cost about a minute of CPU). A RUN step this replay does not know fails the test.
// - runtime stage: a folder made of the stage's `COPY --from=build` sets (hard links to those
//   results), node_modules linked; the CMD starts there with the stage's ENV (PORT and the /data
//   volume mapped to a free port and a temporary folder), the HEALTHCHECK command must pass, and
//   /console (the app's HTML), /docs and the first admin key file in the data volume are checked.
// Not replayed: the base image, `npm prune --omit=dev` (node_modules here holds dev dependencies
// too), USER and file ownership, EXPOSE.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { parse } from 'yaml';
import { ensureBuilt, freePort } from '../process/start-command.js';
import { all, execForm, parseCopy, parseDockerfile, parseEnv, type Stage } from './support/dockerfile.js';
import { dockerignore } from './support/dockerignore.js';

const ROOT = process.cwd();
const stages = parseDockerfile(join(ROOT, 'Dockerfile'));
const build = stages.find((s) => s.name === 'build')!;
const runtime = stages.at(-1)!;
const ignored = dockerignore(join(ROOT, '.dockerignore'));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  workspaces: string[];
  scripts: Record<string, string>;
};
/** The build context: tracked files not left out by .dockerignore. */
const context = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f && existsSync(join(ROOT, f)) && !ignored(f));
const workdir = (stage: Stage) => all(stage, 'WORKDIR').at(-1)!.args;

/** Context files a stage's COPY instructions (before instruction `until`) put into its WORKDIR. */
function copied(stage: Stage, until = stage.instructions.length): Set<string> {
  const files = new Set<string>();
  for (const { keyword, args } of stage.instructions.slice(0, until)) {
    if (keyword !== 'COPY') continue;
    const copy = parseCopy(args);
    if (copy.from) continue;
    for (const source of copy.sources) {
      const matches = context.filter((f) => f === source || f.startsWith(`${source}/`));
      expect({ source, found: matches.length > 0 }).toEqual({ source, found: true });
      for (const f of matches) {
        const into = copy.destination.endsWith('/') || copy.destination === '.' || copy.sources.length > 1;
        files.add(
          f === source
            ? posix.normalize(into ? posix.join(copy.destination, posix.basename(f)) : copy.destination)
            : posix.normalize(posix.join(copy.destination, f.slice(source.length + 1))),
        );
      }
    }
  }
  return files;
}

describe('build stage', () => {
  const runs = all(build, 'RUN').map((r) => r.args);

  it('runs only the steps this replay knows: npm ci, then the build and a prune', () => {
    expect(runs).toEqual([
      'npm ci --ignore-scripts',
      'npm run build && npm prune --omit=dev --ignore-scripts',
    ]);
    expect(manifest.scripts.prepare).toBe('npm run build');
  });

  it('copies every workspace manifest before npm ci', () => {
    const ci = build.instructions.findIndex((i) => i.keyword === 'RUN' && i.args.startsWith('npm ci'));
    const before = copied(build, ci);
    const workspaces = context.filter((f) =>
      manifest.workspaces.some((w) => new RegExp(`^${w.replace('*', '[^/]+')}/package\\.json$`).test(f)),
    );
    expect(workspaces.length).toBeGreaterThan(0);
    for (const f of ['package.json', 'package-lock.json', ...workspaces]) expect(before).toContain(f);
  });

  it("copies every file the build reads: the workspaces, the server's TypeScript project, the build scripts", () => {
    const files = copied(build);
    const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as {
      extends: string;
      include: string[];
    };
    const scripts = Object.entries(manifest.scripts)
      .filter(([name]) => name === 'build' || name.startsWith('build:'))
      .flatMap(([, command]) => [...command.matchAll(/node (scripts\/\S+)/g)].map((m) => m[1]!));
    const roots = [
      ...manifest.workspaces.map((w) => (w.endsWith('/*') ? w.slice(0, -1) : `${w}/`)),
      'tsconfig.build.json',
      posix.normalize(tsconfig.extends),
      ...tsconfig.include.map((d) => `${d}/`),
      ...scripts,
    ];
    const needed = context.filter((f) => roots.some((r) => f === r || (r.endsWith('/') && f.startsWith(r))));
    expect(needed).toEqual(expect.arrayContaining(['packages/console/index.html', 'src/main.ts']));
    expect(needed.filter((f) => !files.has(f))).toEqual([]);
  });
});

describe('runtime stage', () => {
  let dir: string;
  let server: ChildProcess | undefined;
  let base: string;
  let env: Record<string, string>;
  let output = '';

  beforeAll(async () => {
    ensureBuilt(); // dist/ from the current sources (npm ci built it; rebuilt only when stale)
    dir = mkdtempSync(join(tmpdir(), 'ledger-image-'));
    const app = join(dir, 'app');
    mkdirSync(app);
    const buildWorkdir = workdir(build);
    for (const { args } of all(runtime, 'COPY')) {
      const copy = parseCopy(args);
      expect(copy.from).toBe('build'); // the runtime stage takes everything from the build stage
      for (const source of copy.sources) {
        const inRepo = join(ROOT, posix.relative(buildWorkdir, source));
        const target = join(app, copy.destination);
        mkdirSync(dirname(target), { recursive: true });
        // node_modules is linked (a copy is large; packages resolve from there and find nothing
        // above it); the rest is hard-linked, so the server resolves its own files in this folder.
        if (source.endsWith('/node_modules')) symlinkSync(inRepo, target);
        else execFileSync('cp', ['-al', inRepo, target]);
      }
    }
    const image = Object.assign({}, ...all(runtime, 'ENV').map((e) => parseEnv(e.args))) as Record<
      string,
      string
    >;
    const volumes = all(runtime, 'VOLUME').map((v) => v.args);
    expect(volumes).toEqual([image.LEDGER_DATA_DIR]);
    const port = String(await freePort());
    env = { ...image, PATH: process.env.PATH!, PORT: port, LEDGER_DATA_DIR: join(dir, 'data') };
    base = `http://127.0.0.1:${port}`;
    const [command, ...args] = execForm(all(runtime, 'CMD').at(-1)!.args);
    server = spawn(command!, args, {
      cwd: join(dir, workdir(runtime).replace(/^\//, '')),
      env,
      stdio: 'pipe',
    });
    server.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    server.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  });
  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts with the `start` script's command (the tracing preload included)", () => {
    const cmd = execForm(all(runtime, 'CMD').at(-1)!.args);
    expect(`exec ${cmd.join(' ')}`).toBe(manifest.scripts.start);
  });

  it('becomes healthy by its HEALTHCHECK command, then serves /console (the app) and /docs', async () => {
    const [command, ...args] = execForm(all(runtime, 'HEALTHCHECK').at(-1)!.args);
    const healthy = () =>
      new Promise<boolean>((resolve) =>
        spawn(command!, args, { env, stdio: 'ignore' }).on('exit', (code) => resolve(code === 0)),
      );
    for (let i = 0; !(await healthy()); i++) {
      if (server!.exitCode !== null || i > 120) throw new Error(`not healthy:\n${output}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const page = await fetch(`${base}/console/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Operation Ledger console</title>');
    expect((await fetch(`${base}/docs`)).status).toBe(200);
    // stdout is no terminal: the first admin key is in the data volume, where compose's README says
    expect(readFileSync(join(env.LEDGER_DATA_DIR!, 'first-admin-key'), 'utf8')).toMatch(/^olk_/);
  });

  it('compose mounts a volume at the data directory and tells how to read the first key', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
      services: { ledger: { volumes: string[] } };
      volumes: Record<string, unknown>;
    };
    const [volume, path] = compose.services.ledger.volumes[0]!.split(':');
    expect(path).toBe('/data');
    expect(compose.volumes).toHaveProperty(volume!);
    const readKey = 'docker compose exec ledger cat /data/first-admin-key';
    expect(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')).toContain(readKey);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(readKey);
  });
});
