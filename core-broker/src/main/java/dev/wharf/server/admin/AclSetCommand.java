package dev.wharf.server.admin;

import dev.wharf.security.Action;
import dev.wharf.security.Policy;
import dev.wharf.security.ResourcePattern;
import dev.wharf.security.User;
import dev.wharf.server.cli.CliException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code wharf admin acl-set}: sets (or removes) a user's policy on one resource pattern. */
@Command(name = "acl-set", mixinStandardHelpOptions = true,
        description = "Grants (or with --deny refuses) actions on a resource pattern to a user, replacing the user's"
                + " policy on that pattern; --remove drops it. A DENY wins over every ALLOW.")
final class AclSetCommand extends UsersFileCommand {

    @Option(names = "--for", required = true, paramLabel = "USER", description = "The user the policy is for.")
    String user;

    @Option(names = "--resource", required = true, paramLabel = "TYPE:NAME",
            description = "topic:orders, topic:orders-* (a prefix), group:*, cluster:DefaultCluster ...")
    String resource;

    @Option(names = "--actions", split = ",", paramLabel = "ACTION",
            description = "PUB, SUB and/or ADMIN, separated by ','.")
    List<String> actions = new ArrayList<>();

    @Option(names = "--deny", description = "Refuse the actions instead of granting them.")
    boolean deny;

    @Option(names = "--remove", description = "Remove the user's policy on the resource pattern.")
    boolean remove;

    @Override
    public Integer call() throws CliException {
        ResourcePattern pattern;
        Set<Action> set = EnumSet.noneOf(Action.class);
        try {
            pattern = ResourcePattern.parse(resource);
            for (String a : actions) {
                set.add(Action.valueOf(a.trim().toUpperCase(Locale.ROOT)));
            }
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage().contains("No enum constant")
                    ? "--actions " + actions + " names an unknown action; use PUB, SUB or ADMIN" : e.getMessage());
        }
        if (set.isEmpty() && !remove) {
            throw CliException.usage("--actions is needed (PUB, SUB and/or ADMIN), or --remove");
        }
        List<User> users = acl.read();
        int at = AclFileOption.indexOf(users, user);
        if (at < 0) {
            throw CliException.failed("No user named " + user + " in " + acl.file + "; create it first with: wharf"
                    + " admin user-create " + user + " --acl-file " + acl.file + " --new-password");
        }
        List<Policy> policies = new ArrayList<>();
        for (Policy p : users.get(at).policies()) {
            if (!p.resource().equals(pattern)) {
                policies.add(p);
            }
        }
        Policy added = remove ? null : new Policy(pattern, set, !deny);
        if (added != null) {
            policies.add(added);
        }
        users.set(at, users.get(at).withPolicies(policies));
        save(users, added == null ? "Removed the policy of " + user + " on " + pattern + "."
                : "User " + user + ": " + added + ".", Map.of("user", user, "resource", pattern.toString(),
                "actions", set.toString(), "decision", remove ? "REMOVED" : deny ? "DENY" : "ALLOW"));
        return 0;
    }
}
