package dev.herald;

import dev.herald.account.NewAccount;
import dev.herald.config.BadSetting;
import dev.herald.storage.Database;

/**
 * Herald's command line: one argument, the configuration file, or none (then {@code HERALD_CONFIG}, or the bundled
 * defaults). {@code --help}, {@code --version} and {@code account NAME ROLE} answer and end; anything else that looks like an option, or a
 * second argument, ends the start with a line that says so, rather than being read as a file name or ignored.
 */
final class Arguments {

    static final String USAGE = """
            Usage: herald [CONFIGURATION-FILE]
              Starts Herald with the settings of CONFIGURATION-FILE (YAML) over the bundled defaults; without it, the
              file named by HERALD_CONFIG, if any. Environment variables override the file (SERVER_PORT sets
              server.port). Stop it with SIGTERM (kill PID, or Ctrl-C).
              --help     this text
              --version  Herald's version and the schema versions it knows
            Usage: herald account NAME ROLE
              Makes a token for a new account (ROLE: owner, editor or viewer) and prints it with the entry of
              admin.accounts to add to the configuration.""";

    private Arguments() {
    }

    /** Whether the arguments asked for an answer rather than a start (it has been printed). */
    static boolean answeredAlone(String[] args) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(USAGE);
            return true;
        }
        if (args.length == 1 && args[0].equals("--version")) {
            System.out.println("Herald " + Version.current() + " (schema versions 1 to " + Database.newestSchemaVersion()
                    + ")");
            return true;
        }
        if (args.length == 3 && args[0].equals("account")) {
            System.out.println(NewAccount.describe(args[1], args[2]));
            return true;
        }
        if (args.length > 0 && args[0].equals("account")) {
            throw new BadSetting("herald account takes a name and a role (owner, editor or viewer): herald account"
                    + " alice editor");
        }
        if (args.length > 1) {
            throw new BadSetting("Herald takes one argument, its configuration file, not " + args.length + ": "
                    + String.join(" ", args) + " (--help)");
        }
        if (args.length == 1 && args[0].startsWith("-")) {
            throw new BadSetting("Unknown option " + args[0] + "; Herald takes one argument, its configuration file "
                    + "(--help)");
        }
        return false;
    }
}
