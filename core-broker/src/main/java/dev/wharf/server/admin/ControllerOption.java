package dev.wharf.server.admin;

import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.server.cli.CliException;
import dev.wharf.server.cli.ExitCodes;
import picocli.CommandLine.Option;

/** The {@code --controller} option of the controller admin commands, and turning controller errors into exits. */
final class ControllerOption {

    static final long TIMEOUT_MILLIS = 5_000;

    @Option(names = {"-c", "--controller"}, paramLabel = "HOST:PORT",
            defaultValue = "${env:WHARF_CONTROLLER:-127.0.0.1:9878}",
            description = "Controller addresses, several separated by ';' (default: ${DEFAULT-VALUE}, or the "
                    + "WHARF_CONTROLLER environment variable). Controllers inside NameServers answer on the "
                    + "NameServer port.")
    String controller;

    ControllerAdmin open() throws CliException {
        try {
            return new ControllerAdmin(controller, TIMEOUT_MILLIS);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("-c/--controller: " + e.getMessage());
        }
    }

    CliException failure(ControllerException e) {
        if (e.isUnreachable()) {
            return new CliException(ExitCodes.UNREACHABLE, e.getMessage() + " (is the controller running? start one "
                    + "with: wharf controller --help)", e);
        }
        return new CliException(ExitCodes.FAILED, e.getMessage(), e);
    }
}
