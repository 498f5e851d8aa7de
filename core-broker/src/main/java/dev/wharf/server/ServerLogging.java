package dev.wharf.server;

/**
 * Chooses the logging configuration of the {@code wharf} process before the first logger exists. The library jar
 * ships no {@code logback.xml} (an application that embeds the broker keeps its own logging); the command line
 * points logback at the bundled {@value #BUNDLED_CONFIG} unless the user gave
 * {@code -Dlogback.configurationFile}. Servers log at INFO, admin commands at WARN so that their output stays
 * readable; {@code -Dwharf.log.level=DEBUG} overrides both.
 */
final class ServerLogging {

    static final String CONFIG_PROPERTY = "logback.configurationFile";
    static final String BUNDLED_CONFIG = "wharf-server-logback.xml";
    static final String LEVEL_PROPERTY = "wharf.log.level";

    private ServerLogging() {
    }

    static void configure(String[] args) {
        if (System.getProperty(CONFIG_PROPERTY) == null) {
            System.setProperty(CONFIG_PROPERTY, BUNDLED_CONFIG);
        }
        if (System.getProperty(LEVEL_PROPERTY) == null) {
            System.setProperty(LEVEL_PROPERTY, "admin".equals(commandName(args)) ? "WARN" : "INFO");
        }
    }

    /** The first argument that is not an option: the subcommand. */
    static String commandName(String[] args) {
        for (String arg : args) {
            if (!arg.startsWith("-")) {
                return arg;
            }
        }
        return null;
    }
}
