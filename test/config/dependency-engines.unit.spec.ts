// Node 20.19+ is the supported runtime (package.json `engines`, docs/decisions.md): every package
// `npm ci` installs must accept it, or `npm ci` on Node 20 prints EBADENGINE warnings and a
// package may use what Node 20 lacks. Read from the lockfile, as npm checks them at install.
import { readFileSync } from 'node:fs';
import semver from 'semver';

const root = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; dev?: boolean }>;
};

it("every installed package's engines.node accepts the oldest Node this project supports", () => {
  const oldest = semver.minVersion(root.engines.node)!.version;
  expect(oldest).toBe('20.19.0');
  const refusing = Object.entries(lock.packages)
    .filter(([path]) => path.includes('node_modules/'))
    .flatMap(([path, pkg]) => {
      const range = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
      return range && !semver.satisfies(oldest, range)
        ? [`${path.split('node_modules/').pop()}@${pkg.version} wants node ${range}`]
        : [];
    });
  expect(refusing).toEqual([]);
});
