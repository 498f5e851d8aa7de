package dev.wharf.server.admin;

import dev.wharf.security.AclFile;
import dev.wharf.security.User;
import dev.wharf.server.cli.CliException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The users file the user and policy commands edit. They edit the file itself, not a server: each server that reads
 * the file (its {@code aclFile} setting) picks the change up within seconds, without a restart.
 */
final class AclFileOption {

    @Option(names = "--acl-file", required = true, paramLabel = "FILE", defaultValue = "${env:WHARF_ACL_FILE}",
            description = "The users and policies file the servers read (their aclFile setting; default: the"
                    + " WHARF_ACL_FILE environment variable).")
    Path file;

    List<User> read() throws CliException {
        try {
            return new ArrayList<>(AclFile.read(file));
        } catch (IOException e) {
            throw CliException.failed("Cannot read the users file: " + e.getMessage());
        }
    }

    void write(List<User> users) throws CliException {
        try {
            AclFile.write(file, users);
        } catch (IOException e) {
            throw CliException.failed("Cannot write " + file + ": " + e.getMessage());
        }
    }

    static int indexOf(List<User> users, String name) {
        for (int i = 0; i < users.size(); i++) {
            if (users.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
