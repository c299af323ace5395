export function nodeBundleDir(): string;
export function bundleForNode(
  entry: string | { contents: string; resolveDir: string },
  outfile: string,
  alias?: Record<string, string>,
): Promise<string>;
