import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REGISTER = fileURLToPath(new URL('./built-packages-register.mjs', import.meta.url));

/** Builds @gatehouse/engine and @gatehouse/server in the checkout at `root`, as their prepack does before npm packs them. */
export async function buildPackages(root: string): Promise<void> {
  const npm = spawn('npm', ['run', 'build', '--workspace=engine', '--workspace=server', '--silent'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => npm.on('close', resolve));
  if (code !== 0) throw new Error(`npm run build in ${root} exited with ${String(code)}`);
}

/** What a server process adds to run the engine and server of the checkout at `root` from their builds (`buildPackages`). */
export const builtPackages = (root: string) => ({
  execArgv: ['--import', REGISTER],
  env: { BENCH_BUILT_ROOT: pathToFileURL(`${root}/`).href },
});
