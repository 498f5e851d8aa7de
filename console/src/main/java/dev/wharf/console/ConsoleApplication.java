package dev.wharf.console;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * {@code wharf console --namesrv HOST:PORT [--port 8080] [--bind 127.0.0.1] [--users FILE] [--insecure]
 * [--cluster-user NAME]}: the web console. It listens on loopback unless {@code --bind} says otherwise. With
 * {@code --users} (a users file in the broker's format) pages need a sign-in, read-only or admin; without it the
 * console is open, and refuses to start on another address than loopback unless {@code --insecure} says so.
 */
@SpringBootApplication
@EnableScheduling
@EnableConfigurationProperties(ConsoleSettings.class)
public class ConsoleApplication {

    public static void main(String[] args) {
        List<String> springArgs;
        try {
            springArgs = translate(args);
        } catch (IllegalArgumentException e) {
            System.err.println("wharf console: " + e.getMessage());
            System.err.println("usage: wharf console --namesrv HOST:PORT [--port 8080] [--bind 127.0.0.1]"
                    + " [--users FILE] [--insecure] [--cluster-user NAME]");
            System.exit(2);
            return;
        }
        SpringApplication.run(ConsoleApplication.class, springArgs.toArray(String[]::new));
    }

    /** The command line's short options as Spring properties; other {@code --key=value} arguments pass through. */
    static List<String> translate(String[] args) {
        List<String> out = new ArrayList<>();
        boolean namesrv = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String option = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (arg.equals("--insecure")) {
                out.add("--wharf.console.insecure=true");
                continue;
            }
            String property = switch (option) {
                case "--namesrv" -> "wharf.console.namesrv";
                case "--port" -> "server.port";
                case "--bind" -> "server.address";
                case "--users" -> "wharf.console.users-file";
                case "--cluster-user" -> "wharf.console.cluster-user";
                default -> null;
            };
            if (property == null) {
                out.add(arg);
                continue;
            }
            String value;
            if (arg.contains("=")) {
                value = arg.substring(arg.indexOf('=') + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException(option + " needs a value");
            }
            if (value.isBlank()) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            namesrv |= option.equals("--namesrv");
            out.add("--" + property + "=" + value);
        }
        if (!namesrv && out.stream().noneMatch(a -> a.startsWith("--wharf.console.namesrv="))) {
            throw new IllegalArgumentException("--namesrv is required: the NameServer(s) of the cluster to show,"
                    + " e.g. --namesrv 127.0.0.1:9876");
        }
        return out;
    }
}
