/**
 * Errors of the sandbox. Messages start with `servicepay:` and say how to fix the cause.
 * `name` is a string literal (not `new.target.name`) so it survives minification.
 */
export class SandboxError extends Error {
  override name: string = 'SandboxError';
}

/** An option of startSandbox (or a CLI flag) is missing or invalid. */
export class SandboxConfigError extends SandboxError {
  override name = 'SandboxConfigError';
  /** The option at fault. */
  readonly option: string;

  constructor(message: string, option: string, options?: ErrorOptions) {
    super(message, options);
    this.option = option;
  }
}
