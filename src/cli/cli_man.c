/* cli_man.c - the manual page optcast(1) and the bash and zsh completion
 * scripts, written from the same tables as the help (CLI_COMMANDS,
 * CLI_OPTS, CLI_MODEL_NOTES): `optcast help --man`, `optcast help
 * --completion bash|zsh`.  `make install` runs them; a test checks that
 * every command and option of the tables is in them. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* ---- the words a command takes first -------------------------------------------- */

const char *cli_command_words(unsigned bit) {
  static char model[128];
  if (bit == CMD_COMPARE || bit == CMD_RANK) return "bcast reduce allreduce";
  if (bit == CMD_RUN) return "bcast reduce allreduce allgather scan sum";
  if (bit & CMD_MODEL) {
    size_t at = 0;
    for (int p = 0; p < P_NPROBLEMS && at < sizeof model; p++)
      at += (size_t)snprintf(model + at, sizeof model - at, "%s%s", p ? " " : "",
                             CLI_PROBLEMS[p].name);
    return model;
  }
  if (bit == CMD_HELP) {
    static char cmds[160];
    size_t at = 0;
    for (size_t i = 0; i < CLI_NCOMMANDS && at < sizeof cmds; i++)
      at += (size_t)snprintf(cmds + at, sizeof cmds - at, "%s%s", i ? " " : "",
                             CLI_COMMANDS[i].name);
    return cmds;
  }
  return "";
}

/* ---- roff ----------------------------------------------------------------------- */

/* text as roff: backslashes and minus signs escaped, a line that would
 * start with a control character (. or ') guarded */
static void roff(FILE *f, const char *s) {
  int bol = 1;
  for (; *s != '\0'; s++) {
    if (bol && (*s == '.' || *s == '\'')) fputs("\\&", f);
    bol = *s == '\n';
    if (*s == '\\') fputs("\\e", f);
    else if (*s == '-') fputs("\\-", f);
    else fputc(*s, f);
  }
}

static void option_head(FILE *f, const cli_option *o) {
  fputs(".TP\n", f);
  if (o->value == NULL) {
    fputs(".B \\-\\-", f);
    roff(f, o->name);
  } else { /* the name bold, its value italic */
    fputs(".BI \"\\-\\-", f);
    roff(f, o->name);
    fputs(" \" \"", f);
    roff(f, o->value);
    fputs("\"", f);
  }
  fputc('\n', f);
}

int cli_help_man(FILE *f) {
  fprintf(f, ".\\\" optcast(1), written by 'optcast help --man' from the command's tables\n"
             ".TH OPTCAST 1 \"\" \"optcast %s\" \"User Commands\"\n", oc_version());
  fputs(".SH NAME\noptcast \\- optimal collective communication: build, verify, show and run "
        "the schedules\n"
        ".SH SYNOPSIS\n.B optcast\n.I COMMAND\n[\\fIPROBLEM\\fR] [\\fIoptions\\fR]\n.br\n"
        ".B optcast \\-\\-help\n|\n.B \\-\\-version\n"
        ".SH DESCRIPTION\n"
        "optcast builds schedules for broadcast, reduction, allreduce, all-to-all and prefix "
        "sums that are optimal in the LogP, postal, k-port and reconfigurable-ring models, "
        "checks every schedule with its own simulator against the model's rules and a lower "
        "bound, draws them, compares them with the algorithms of MPI libraries, and runs "
        "collectives on threads.\n"
        ".PP\nBad input gets one line on standard error naming the parameter and its value, "
        "exit status 2 and nothing on standard output.\n",
        f);
  fputs(".SH COMMANDS\n", f);
  for (size_t i = 0; i < CLI_NCOMMANDS; i++) {
    const cli_command *k = &CLI_COMMANDS[i];
    fputs(".SS ", f);
    roff(f, k->name);
    fputs("\n", f);
    roff(f, k->summary);
    fputs(".\n.PP\n.nf\n", f);
    roff(f, k->usage);
    fputs(".fi\n", f);
    for (int o = 0; o < O_NOPTS; o++)
      if (CLI_OPTS[o].takes & k->bit) {
        option_head(f, &CLI_OPTS[o]);
        roff(f, CLI_OPTS[o].help);
        fputc('\n', f);
      }
  }
  fputs(".SH PROBLEMS AND MODEL PARAMETERS\n.nf\n", f);
  roff(f, CLI_MODEL_NOTES);
  fputs(".fi\n"
        ".SH EXIT STATUS\n"
        ".TP\n.B 0\nsuccess\n"
        ".TP\n.B 1\na check failed: a schedule breaks a rule of the model, or a run's result is "
        "wrong\n"
        ".TP\n.B 2\nbad input (one line on standard error), or output that could not be "
        "written\n"
        ".SH EXAMPLES\n"
        "Karp et al.'s optimal broadcast to 8 processors with L = 6, o = 2, g = 4, and the "
        "schedule checked again by the verifier:\n.PP\n.nf\n", f);
  roff(f, "optcast plan bcast --procs 8 --latency 6 --overhead 2 --gap 4\n"
          "optcast plan bcast --procs 8 --latency 6 --overhead 2 --gap 4 --csv |\n"
          "  optcast verify bcast --procs 8 --latency 6 --overhead 2 --gap 4\n");
  fputs(".fi\n.PP\nThe plan against the MPI libraries' algorithms, with a published parameter "
        "set:\n.PP\n.nf\n", f);
  roff(f, "optcast compare bcast --preset ib-tukey --procs 1024 --size 65536\n");
  fputs(".fi\n.PP\nAn allreduce of 1000 integers on 4 threads, checked and timed:\n.PP\n.nf\n",
        f);
  roff(f, "optcast run allreduce --procs 4 --count 1000 --check\n");
  fputs(".fi\n.SH SEE ALSO\n"
        "The project's docs/CLI.md (every option and output format), docs/MODEL.md (the "
        "models and their time units) and docs/RUNTIME.md (the collective library);\n"
        ".BR pkg-config (1)\nwith the package name optcast for the C library.\n",
        f);
  return ferror(f) ? CLI_EXIT_INPUT : 0;
}

/* ---- completion --------------------------------------------------------------------- */

/* the options command bit reads, "--a --b ..." */
static void option_words(FILE *f, unsigned bit) {
  int first = 1;
  for (int o = 0; o < O_NOPTS; o++)
    if (CLI_OPTS[o].takes & bit) {
      fprintf(f, "%s--%s", first ? "" : " ", CLI_OPTS[o].name);
      first = 0;
    }
}

/* the case arms giving an option's fixed values (choices) or files */
static void value_arms(FILE *f, const char *files, const char *words) {
  fprintf(f, "    --svg|--html|--out|--params) %s ;;\n", files);
  for (int o = 0; o < O_NOPTS; o++)
    if (CLI_OPTS[o].choices != NULL) {
      fprintf(f, "    --%s) ", CLI_OPTS[o].name);
      fprintf(f, words, CLI_OPTS[o].choices);
      fputs(" ;;\n", f);
    }
}

int cli_help_completion(FILE *f, const char *shell) {
  int zsh;
  if (strcmp(shell, "bash") == 0) zsh = 0;
  else if (strcmp(shell, "zsh") == 0) zsh = 1;
  else die("--completion: '%s' is neither bash nor zsh", shell);
  if (zsh)
    fprintf(f, "#compdef optcast\n# zsh completion for optcast %s (written by 'optcast help "
               "--completion zsh')\n_optcast() {\n  local cmd=${words[2]} cur=${words[CURRENT]} "
               "prev=${words[CURRENT-1]} opts probs\n  if (( CURRENT == 2 )); then\n"
               "    compadd -- %s --help --version\n    return\n  fi\n  case $prev in\n",
            oc_version(), cli_command_words(CMD_HELP));
  else
    fprintf(f, "# bash completion for optcast %s (written by 'optcast help --completion bash')\n"
               "_optcast() {\n  local cur=${COMP_WORDS[COMP_CWORD]} prev cmd opts probs\n"
               "  COMPREPLY=()\n  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
               "    COMPREPLY=($(compgen -W \"%s --help --version\" -- \"$cur\"))\n"
               "    return 0\n  fi\n  prev=${COMP_WORDS[COMP_CWORD-1]}\n"
               "  cmd=${COMP_WORDS[1]}\n  case $prev in\n",
            oc_version(), cli_command_words(CMD_HELP));
  if (zsh) value_arms(f, "_files; return", "compadd -- %s; return");
  else value_arms(f, "COMPREPLY=($(compgen -f -- \"$cur\")); return 0",
                  "COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return 0");
  fputs("  esac\n  case $cmd in\n", f);
  for (size_t i = 0; i < CLI_NCOMMANDS; i++) {
    const cli_command *k = &CLI_COMMANDS[i];
    fprintf(f, "    %s) opts=\"", k->name);
    option_words(f, k->bit);
    fprintf(f, "\" probs=\"%s\" ;;\n", cli_command_words(k->bit));
  }
  fputs("    *) return 0 ;;\n  esac\n", f);
  if (zsh)
    fputs("  if [[ $cur == -* ]]; then compadd -- ${=opts}; else compadd -- ${=probs}; fi\n}\n"
          "_optcast \"$@\"\n", f);
  else
    fputs("  case $cur in\n    -*) COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")) ;;\n"
          "    *) COMPREPLY=($(compgen -W \"$probs\" -- \"$cur\")) ;;\n  esac\n  return 0\n}\n"
          "complete -F _optcast optcast\n", f);
  return ferror(f) ? CLI_EXIT_INPUT : 0;
}
