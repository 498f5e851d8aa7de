package dev.wharf.server.admin;

import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.controller.client.ControllerInvoker;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.server.cli.CliException;
import dev.wharf.server.cli.ExitCodes;
import java.util.function.UnaryOperator;
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

    /** A client of the controllers, signing with the admin command's credentials and speaking its TLS. */
    ControllerAdmin open(AdminCommand admin) throws CliException {
        try {
            ControllerInvoker.parseAddresses(controller);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("-c/--controller: " + e.getMessage());
        }
        UnaryOperator<NettyRemotingClient> setup = admin.clientSetup();
        try {
            return new ControllerAdmin(controller, TIMEOUT_MILLIS, setup);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
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
