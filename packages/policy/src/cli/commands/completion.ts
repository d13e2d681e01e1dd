/** `rego completion bash|zsh`: a shell completion script for command names and flags. */
import type { Command, PolicyIo } from "../cli-io.js";

/** Builds the completion command over the names of every command. */
export function completionCommand(commandNames: () => string[]): Command {
  return {
    name: "completion",
    summary: "Print a shell completion script (bash or zsh)",
    usage: "Usage: rego completion bash|zsh\n\nLoad it with: source <(rego completion bash)\n",
    run: async (argv: string[], io: PolicyIo) => {
      const shell = argv[0];
      if (argv.length !== 1 || (shell !== "bash" && shell !== "zsh")) {
        io.stderr.write("error: specify bash or zsh\n");
        return 2;
      }
      const words = commandNames().sort().join(" ");
      const bash = [
        "_rego_complete() {",
        // Bash passes the word being completed as $2.
        '  local cur="$2"',
        '  if [ "$COMP_CWORD" -eq 1 ]; then',
        `    COMPREPLY=( $(compgen -W "${words}" -- "$cur") )`,
        "  else",
        '    COMPREPLY=( $(compgen -f -- "$cur") )',
        "  fi",
        "}",
        "complete -F _rego_complete rego",
      ];
      const prefix = shell === "zsh" ? ["autoload -U +X bashcompinit && bashcompinit"] : [];
      io.stdout.write(`${[...prefix, ...bash].join("\n")}\n`);
      return 0;
    },
  };
}
